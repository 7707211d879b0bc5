import { DEFAULT_INTEGRITY_RULES, type IntegrityRules } from '../domain/arena/vote-integrity';
import { buildVoteTable, matchesFromArenaVotes, type PairwiseVote } from '../domain/ranking';
import { computeInfluence, type GroupedVoteTable, type InfluenceOptions, type InfluenceReport } from '../domain/ranking/influence';
import { OWN_VIEW_MODES, toViewVote, viewKey } from '../domain/ranking/leaderboard-views';
import type { RankingVoteRecord } from '../domain/ranking/ranking-records';
import type { Store } from '../db/unit-of-work';
import { integrityOfVotes, ratingsOfBoard } from './vote-integrity';

/** Which hash groups the votes: the visitor's cookie, or the client address's. */
export type InfluenceGrouping = 'visitor' | 'address';

/**
 * The main board's votes (as `mainBoardTable` keeps them: flagged and own-view votes left out),
 * each with its group: the visitor hash, or the address hash (votes without one belong to no group).
 */
export function groupedMainBoard(
  records: readonly RankingVoteRecord[],
  flags: ReadonlyMap<string, readonly string[]>,
  by: InfluenceGrouping,
  options: { customModeOnMainBoard?: boolean | undefined } = {},
): GroupedVoteTable {
  const ownViewModes = options.customModeOnMainBoard ? [] : OWN_VIEW_MODES;
  const matches: PairwiseVote[] = [];
  const groupOf: number[] = [];
  const groupIndex = new Map<string, number>();
  const groupNames: string[] = [];
  for (const record of records) {
    if (record.source === 'arena' && ownViewModes.includes(record.mode)) continue;
    if (record.modelA === record.modelB) continue;
    const [match] = matchesFromArenaVotes([toViewVote(record, flags.get(record.duelId)).vote]).matches;
    if (!match) continue;
    const key = by === 'visitor' ? record.visitorHash : record.clientHash;
    let group = -1;
    if (key) {
      group = groupIndex.get(key) ?? groupNames.length;
      if (group === groupNames.length) {
        groupIndex.set(key, group);
        groupNames.push(key);
      }
    }
    matches.push(match);
    groupOf.push(group);
  }
  return { table: buildVoteTable(matches), group: Int32Array.from(groupOf), groupNames };
}

/** Rank influence on the store's main board (`agora influence`, the console's influence page). */
export async function storeInfluence(
  store: Store,
  by: InfluenceGrouping,
  options: InfluenceOptions & {
    integrity?: IntegrityRules | undefined;
    customModeOnMainBoard?: boolean | undefined;
    /** Count the votes the integrity rules flag too: what a campaign the rules miss would do. */
    includeFlagged?: boolean | undefined;
  } = {},
): Promise<InfluenceReport> {
  const records = await store.feedback.listRankingVotes();
  // The integrity rules judge against the stored main board, as the live leaderboard does.
  const stored = await store.leaderboards.latestSnapshots();
  const ratings = ratingsOfBoard(stored.find((snapshot) => snapshot.view === viewKey({ style: 'plain' }))?.body);
  const flags = options.includeFlagged
    ? new Map<string, string[]>()
    : integrityOfVotes(records, options.integrity ?? DEFAULT_INTEGRITY_RULES, ratings);
  return computeInfluence(groupedMainBoard(records, flags, by, options), options);
}
