import type { Store } from '../db/unit-of-work';
import { type IntegrityRules, integrityRuleBits, withReviews } from '../domain/arena/vote-integrity';
import type { Leaderboard } from '../domain/ranking';
import { OWN_VIEW_MODES, computeViewsFromColumns, countedVotes, toViewVote, viewKey } from '../domain/ranking/leaderboard-views';
import { firstVotePerVisitorCluster, withoutPromptClusters } from '../domain/ranking/prompt-cluster-cap';
import { RankingVoteColumns, type VoteColumns } from '../domain/ranking/vote-columns';
import { nextTurnOfTheEventLoop } from './read-progress';
import { voteFacts } from './vote-integrity';

/** Votes read per page: the reader holds one page of objects at a time, whatever the number of votes. */
const VOTE_PAGE = 5_000;

/**
 * Every stored vote judged by the integrity rules over the whole history, as the live board judges
 * it: read a page at a time into the board's own columns (about seventy bytes a vote, plus its duel
 * id), never as one array of objects. Reading them as objects cost 14 s of CPU and 1 GB on 250,000
 * votes with the event loop stopped throughout, and would pass Node's heap at a few million.
 */
export interface JudgedVotes {
  columns: VoteColumns;
  /** The duel of each row. */
  duelIds: string[];
  /** The rules' flags ({@link integrityRuleBits}), before the reviewers' decisions. */
  ruleBits: Uint8Array;
  /** What keeps each vote out of the board: the rules' flags a reviewer did not clear, or the reviewer's exclusion. */
  bits: Uint8Array;
}

export async function judgeStoredVotes(
  store: Store,
  rules: IntegrityRules,
  ratings: ReadonlyMap<string, number> | undefined,
  options: { promptDedup?: boolean | undefined },
): Promise<JudgedVotes> {
  const kept = new RankingVoteColumns();
  const duelIds: string[] = [];
  for await (const page of store.feedback.rankingVotePages(VOTE_PAGE)) {
    for (const record of page)
      if (kept.put({ view: toViewVote(record), facts: voteFacts(record) }, record.duelId) === 'added') duelIds.push(record.duelId);
    await nextTurnOfTheEventLoop();
  }
  const columns = options.promptDedup === false ? withoutPromptClusters(kept.view()) : kept.view();
  const ratingOf = ratings && Float64Array.from(columns.models, (model) => ratings.get(model) ?? Number.NaN);
  const ruleBits = integrityRuleBits(columns, rules, ratingOf);
  return { columns, duelIds, ruleBits, bits: withReviews(columns, ruleBits) };
}

/** The rows that pass `keep`, newest first (ties: the greater duel id first). */
export function newestRows(judged: JudgedVotes, keep: (row: number) => boolean): number[] {
  const rows: number[] = [];
  for (let row = 0; row < judged.columns.length; row++) if (keep(row)) rows.push(row);
  const { createdAtMs } = judged.columns;
  const { duelIds } = judged;
  return rows.sort((left, right) => createdAtMs[right]! - createdAtMs[left]! || (duelIds[right]! < duelIds[left]! ? -1 : 1));
}

/**
 * The main board's plain view fitted as the live leaderboard fits it (one vote per visitor and
 * prompt cluster, clusters' weight capped, own-view modes left out), once as counted and once with
 * the flagged votes counted too (the store's own flags, identity leaks and served-model mismatches,
 * still keep theirs out).
 */
export function mainBoardWithAndWithoutFlagged(
  judged: JudgedVotes,
  options: { customModeOnMainBoard?: boolean | undefined },
): { counted: Leaderboard; withFlagged: Leaderboard } {
  const { columns } = judged;
  const key = viewKey({ style: 'plain' });
  const view = { key, style: 'plain' as const, language: null, mode: null, category: null };
  const main = [{ ...view, ownViewModes: options.customModeOnMainBoard ? [] : OWN_VIEW_MODES }];
  const fit = (bits: Uint8Array) =>
    computeViewsFromColumns(columns, firstVotePerVisitorCluster(columns, countedVotes(columns, bits)), main);
  return { counted: fit(judged.bits).get(key)!, withFlagged: fit(new Uint8Array(columns.length)).get(key)! };
}
