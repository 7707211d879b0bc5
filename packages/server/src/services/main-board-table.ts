import { buildVoteTable, matchesFromArenaVotes, type VoteTable } from '../domain/ranking';
import { OWN_VIEW_MODES, toViewVote } from '../domain/ranking/leaderboard-views';
import type { RankingVoteRecord } from '../domain/ranking/ranking-records';

/**
 * The main board's vote table from stored votes and each vote's integrity flags (a vote with any is
 * left out; identity leaks and served-model mismatches always are): one function for
 * `agora leaderboard` and the console's "what the flagged votes would move" (the arena's
 * custom-mode votes left out unless `customModeOnMainBoard`, as the live main board does).
 */
export function mainBoardTable(
  records: readonly RankingVoteRecord[],
  flags: ReadonlyMap<string, readonly string[]>,
  options: { customModeOnMainBoard?: boolean | undefined } = {},
): VoteTable {
  const ownViewModes = options.customModeOnMainBoard ? [] : OWN_VIEW_MODES;
  const onMainBoard = records.filter((record) => record.source !== 'arena' || !ownViewModes.includes(record.mode));
  const votes = onMainBoard.map((record) => toViewVote(record, flags.get(record.duelId)).vote);
  return buildVoteTable(matchesFromArenaVotes(votes).matches);
}
