import type { IntegrityOverview } from '@agora/contract';
import { computeLeaderboard } from '../domain/ranking';
import type { RankingVoteRecord } from '../domain/ranking/ranking-records';
import { mainBoardTable } from './main-board-table';

/** How many characters of a visitor's or address's hash the console shows: enough to tell groups apart, not a whole key. */
export const HASH_SHOWN = 12;

/** A group of flagged votes under one key (a visitor, an address). */
interface VoteGroup {
  votes: number;
  visitors: Set<string>;
  flags: Set<string>;
}

/**
 * The flagged votes (`flags`: each vote left out of the board, with why) by rule, by visitor and by
 * address, the largest groups first, `limit` of each.
 */
export function groupFlaggedVotes(
  records: readonly RankingVoteRecord[],
  flags: ReadonlyMap<string, readonly string[]>,
  limit: number,
): Pick<IntegrityOverview, 'flagged_votes' | 'by_rule' | 'by_visitor' | 'by_address'> {
  const byRule = new Map<string, number>();
  const byVisitor = new Map<string, VoteGroup>();
  const byAddress = new Map<string, VoteGroup>();
  const add = (groups: Map<string, VoteGroup>, key: string, visitor: string, voteFlags: readonly string[]) => {
    const group = groups.get(key) ?? { votes: 0, visitors: new Set(), flags: new Set() };
    group.votes += 1;
    group.visitors.add(visitor);
    for (const flag of voteFlags) group.flags.add(flag);
    groups.set(key, group);
  };
  let flagged = 0;
  for (const record of records) {
    const voteFlags = flags.get(record.duelId);
    if (!voteFlags || voteFlags.length === 0) continue;
    flagged += 1;
    for (const flag of voteFlags) byRule.set(flag, (byRule.get(flag) ?? 0) + 1);
    add(byVisitor, record.visitorHash.slice(0, HASH_SHOWN), record.visitorHash, voteFlags);
    if (record.clientHash !== null) add(byAddress, record.clientHash.slice(0, HASH_SHOWN), record.visitorHash, voteFlags);
  }
  const largest = (groups: Map<string, VoteGroup>) =>
    [...groups].sort(([leftKey, left], [rightKey, right]) => right.votes - left.votes || leftKey.localeCompare(rightKey)).slice(0, limit);
  return {
    flagged_votes: flagged,
    by_rule: [...byRule].map(([flag, votes]) => ({ flag, votes })).sort((left, right) => right.votes - left.votes),
    by_visitor: largest(byVisitor).map(([visitor, group]) => ({ visitor, votes: group.votes, flags: [...group.flags].sort() })),
    by_address: largest(byAddress).map(([address, group]) => ({
      address,
      votes: group.votes,
      visitors: group.visitors.size,
      flags: [...group.flags].sort(),
    })),
  };
}

/**
 * What the flagged votes would move: the main board fitted as the live leaderboard fits it
 * (`computeLeaderboard`, plain), once as counted and once with every flagged vote counted, and each
 * model's rating with them minus without. A board with too few votes or models to fit is null.
 */
export function flaggedVotesEffect(
  records: readonly RankingVoteRecord[],
  flags: ReadonlyMap<string, readonly string[]>,
  options: { customModeOnMainBoard?: boolean | undefined },
): IntegrityOverview['effect'] {
  const counted = fitted(mainBoardTable(records, flags, options));
  const withFlagged = fitted(mainBoardTable(records, new Map(), options));
  if (!counted || !withFlagged) return null;
  const models = [...new Set([...counted.keys(), ...withFlagged.keys()])];
  const rounded = (rating: number | undefined) => (rating === undefined ? null : Math.round(rating * 10) / 10);
  return models
    .map((model) => {
      const before = counted.get(model);
      const after = withFlagged.get(model);
      return {
        model,
        counted: rounded(before),
        with_flagged: rounded(after),
        moved: before === undefined || after === undefined ? null : Math.round((after - before) * 10) / 10,
      };
    })
    .sort((left, right) => Math.abs(right.moved ?? 0) - Math.abs(left.moved ?? 0) || left.model.localeCompare(right.model));
}

/** The ranked (not provisional) models' ratings of a fit, or undefined when it cannot be fitted. */
function fitted(table: ReturnType<typeof mainBoardTable>): Map<string, number> | undefined {
  // Without an anchor or a variant asked for, only a variant without a finite estimate throws, and the default falls back instead.
  const board = computeLeaderboard(table, { style: false });
  const rows = board.rows.filter((row) => row.rank !== null);
  return rows.length < 2 ? undefined : new Map(rows.map((row) => [row.model, row.rating]));
}
