import { DEFAULT_INTEGRITY_RULES, type IntegrityRules } from '../domain/arena/vote-integrity';
import { buildVoteTable, matchesFromArenaVotes, type PairwiseVote } from '../domain/ranking';
import {
  computeInfluence,
  DEFAULT_INFLUENCE_ALERT,
  type GroupedVoteTable,
  type InfluenceOptions,
  type InfluenceReport,
} from '../domain/ranking/influence';
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
): Promise<StoreInfluenceReport> {
  // The stamp first: votes cast meanwhile belong to the next refresh's answer, never to this one's.
  const [board] = await store.leaderboards.snapshotsOfView(viewKey({ style: 'plain' }), 1);
  const records = await store.feedback.listRankingVotes();
  // The integrity rules judge against the stored main board, as the live leaderboard does.
  const ratings = ratingsOfBoard(board?.body);
  const flags = options.includeFlagged
    ? new Map<string, string[]>()
    : integrityOfVotes(records, options.integrity ?? DEFAULT_INTEGRITY_RULES, ratings);
  const grouped = groupedMainBoard(records, flags, by, options);
  const stamp = { votes: grouped.table.length, boardGeneratedAt: board?.generatedAt ?? null };
  // Fewer than two models: nothing is ranked, so nothing moves.
  if (grouped.table.models.length < 2) return { ...emptyReport(options), ...stamp };
  return { ...computeInfluence(grouped, options), ...stamp };
}

/** The report, with the main-board votes it read and the leaderboard refresh it follows. */
export type StoreInfluenceReport = InfluenceReport & { votes: number; boardGeneratedAt: string | null };

function emptyReport(options: InfluenceOptions): InfluenceReport {
  const alertRule = options.alert ?? DEFAULT_INFLUENCE_ALERT;
  return { lambdaTheta: options.lambdaTheta ?? 0, alertRule, groups: 0, undefinedGroups: [], models: [], alerts: [], plans: [] };
}
