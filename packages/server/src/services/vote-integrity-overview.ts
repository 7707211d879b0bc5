import type { IntegrityOverview } from '@agora/contract';
import type { Leaderboard } from '../domain/ranking';

/** How many characters of a visitor's or address's hash the console shows: enough to tell groups apart, not a whole key. */
export const HASH_SHOWN = 12;

/** A group of flagged votes under one key (a visitor, an address). */
interface VoteGroup {
  votes: number;
  visitors: Set<string>;
  flags: Set<string>;
}

/**
 * The flagged votes by rule, by visitor and by address, the largest groups first: added one at a
 * time (a vote's owners and flags), so that no list of every flagged vote is ever held.
 */
export class FlaggedVoteGroups {
  private flagged = 0;
  private readonly byRule = new Map<string, number>();
  private readonly byVisitor = new Map<string, VoteGroup>();
  private readonly byAddress = new Map<string, VoteGroup>();

  add(vote: { visitorHash: string; clientHash: string | null }, flags: readonly string[]): void {
    if (flags.length === 0) return;
    this.flagged += 1;
    for (const flag of flags) this.byRule.set(flag, (this.byRule.get(flag) ?? 0) + 1);
    addTo(this.byVisitor, vote.visitorHash.slice(0, HASH_SHOWN), vote.visitorHash, flags);
    if (vote.clientHash !== null) addTo(this.byAddress, vote.clientHash.slice(0, HASH_SHOWN), vote.visitorHash, flags);
  }

  /** The groups, `limit` of each. */
  result(limit: number): Pick<IntegrityOverview, 'flagged_votes' | 'by_rule' | 'by_visitor' | 'by_address'> {
    const largest = (groups: Map<string, VoteGroup>) =>
      [...groups].sort(([leftKey, left], [rightKey, right]) => right.votes - left.votes || leftKey.localeCompare(rightKey)).slice(0, limit);
    return {
      flagged_votes: this.flagged,
      by_rule: [...this.byRule].map(([flag, votes]) => ({ flag, votes })).sort((left, right) => right.votes - left.votes),
      by_visitor: largest(this.byVisitor).map(([visitor, group]) => ({ visitor, votes: group.votes, flags: [...group.flags].sort() })),
      by_address: largest(this.byAddress).map(([address, group]) => ({
        address,
        votes: group.votes,
        visitors: group.visitors.size,
        flags: [...group.flags].sort(),
      })),
    };
  }
}

function addTo(groups: Map<string, VoteGroup>, key: string, visitor: string, flags: readonly string[]): void {
  const group = groups.get(key) ?? { votes: 0, visitors: new Set(), flags: new Set() };
  group.votes += 1;
  group.visitors.add(visitor);
  for (const flag of flags) group.flags.add(flag);
  groups.set(key, group);
}

/**
 * What the flagged votes would move: each ranked model's rating on the main board with the flagged
 * votes counted minus as counted ({@link mainBoardWithAndWithoutFlagged}). Null when either board
 * has fewer than two ranked models.
 */
export function flaggedVotesEffect(counted: Leaderboard, withFlagged: Leaderboard): IntegrityOverview['effect'] {
  const before = rankedRatings(counted);
  const after = rankedRatings(withFlagged);
  if (!before || !after) return null;
  const models = [...new Set([...before.keys(), ...after.keys()])];
  const rounded = (rating: number | undefined) => (rating === undefined ? null : Math.round(rating * 10) / 10);
  return models
    .map((model) => {
      const without = before.get(model);
      const withThem = after.get(model);
      return {
        model,
        counted: rounded(without),
        with_flagged: rounded(withThem),
        moved: without === undefined || withThem === undefined ? null : Math.round((withThem - without) * 10) / 10,
      };
    })
    .sort((left, right) => Math.abs(right.moved ?? 0) - Math.abs(left.moved ?? 0) || left.model.localeCompare(right.model));
}

/** The ranked (not provisional) models' ratings of a board, or undefined with fewer than two. */
function rankedRatings(board: Leaderboard): Map<string, number> | undefined {
  const rows = board.rows.filter((row) => row.rank !== null);
  return rows.length < 2 ? undefined : new Map(rows.map((row) => [row.model, row.rating]));
}
