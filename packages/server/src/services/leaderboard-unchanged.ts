import { createHash } from 'node:crypto';
import type { LeaderboardBody } from '@agora/contract';
import type { RankingVoteColumns } from '../domain/ranking/vote-columns';
import { STATE_COLUMNS } from '../domain/ranking/vote-columns-state';
import { type BoardDressing, type MeanEnergy, cardFields } from './leaderboard-body';
import type { Available } from './leaderboard-view-plan';

/*
 * A restart whose catch-up from the kept votes' snapshot changed nothing need not fit again: the
 * stored boards are those fits (issue 35, item 2). They are trusted only when everything a fit
 * would put in them is the same: the votes (a digest of the columns before and after the
 * catch-up), the boards written after the snapshot's read, the same views with the same vote counts
 * per language, mode and topic, and the same cards. Anything else: the refresh fits, as always.
 */

/** A digest of everything the columns hold that a refresh reads (SHA-1 of their bytes: about 1 GB/s). */
export function columnsDigest(columns: RankingVoteColumns): string {
  const state = columns.toState();
  const hash = createHash('sha1');
  hash.update(JSON.stringify([state.counts, state.names, state.categoryOverflow]));
  for (const { name } of STATE_COLUMNS) {
    const column = state.columns[name];
    hash.update(new Uint8Array(column.buffer, column.byteOffset, column.byteLength));
  }
  hash.update(new Uint8Array(state.energySums.buffer, state.energySums.byteOffset, state.energySums.byteLength));
  return hash.digest('hex');
}

/** What the refresh would fit, to compare with the stored boards. */
export interface ExpectedBoards {
  viewKeys: readonly string[];
  available: Available;
  energy: MeanEnergy;
  /** The snapshot's read (ms): the stored boards must come from a refresh after it. */
  readFrom: number;
}

/** Whether the stored boards are what a fit of the unchanged votes would store (see above). */
export function storedBoardsCurrent(
  stored: ReadonlyMap<string, LeaderboardBody>,
  expected: ExpectedBoards,
  dressing: BoardDressing,
): boolean {
  if (expected.viewKeys.length === 0 || stored.size !== expected.viewKeys.length) return false;
  const available = JSON.stringify(expected.available);
  return expected.viewKeys.every((key) => {
    const body = stored.get(key);
    return (
      body !== undefined &&
      body.generated_at !== null &&
      Date.parse(body.generated_at) >= expected.readFrom &&
      body.min_votes === dressing.minVotes &&
      JSON.stringify(body.available) === available &&
      body.models.every((row) => sameCard(row, cardFields(dressing, row.model, expected.energy)))
    );
  });
}

function sameCard(row: LeaderboardBody['models'][number], card: ReturnType<typeof cardFields>): boolean {
  // The card's fields in the card's order, from the stored row.
  const stored = Object.fromEntries(Object.keys(card).map((field) => [field, row[field as keyof typeof card]]));
  return JSON.stringify(stored) === JSON.stringify(card);
}
