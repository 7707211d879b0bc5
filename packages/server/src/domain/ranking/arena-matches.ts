import { INTEGRITY_FLAGS } from '../arena/vote-integrity';
import type { PairwiseVote, StyleCounts, VoteOutcome } from './vote-table';

/** A visitor's choice on a duel, as the arena stores it. */
export type ArenaChoice = 'a' | 'b' | 'tie' | 'both_bad';

/** Flags that keep a vote out of the leaderboard unless asked otherwise. */
export const DEFAULT_EXCLUDED_FLAGS: readonly string[] = [
  'identity_leak',
  'abuse',
  // A provider served another model than the catalogue says (domain/arena/served-model.ts): the vote judged an unknown model.
  'served_model_mismatch',
  // Vote integrity (domain/arena/vote-integrity.ts): patterns honest votes do not make, and reviewers' exclusions.
  ...INTEGRITY_FLAGS,
];

/** One stored arena vote, reduced to what the ranking needs. */
export interface ArenaVote {
  /** Model ids of side A and side B (catalogue slugs). */
  modelA: string;
  modelB: string;
  choice: ArenaChoice;
  /**
   * Moderation flags on the vote or its duel, e.g. `identity_leak` (a model revealed who it is,
   * so the vote was not blind) or `abuse`.
   */
  flags?: readonly string[] | undefined;
  /** Style counts of both sides (see `countStyleElements`), for style control. */
  style?: { a: StyleCounts; b: StyleCounts } | undefined;
}

/** Options of {@link matchesFromArenaVotes}. */
export interface ArenaMatchOptions {
  /** Flags whose votes are left out (default {@link DEFAULT_EXCLUDED_FLAGS}); [] keeps all. */
  excludeFlags?: readonly string[] | undefined;
}

/** Matches ready for `buildVoteTable`, and what was left out. */
export interface ArenaMatches {
  matches: PairwiseVote[];
  /** Votes left out, per flag that excluded them (a vote counts once, under its first flag). */
  excludedByFlag: Record<string, number>;
}

const OUTCOME_OF_CHOICE: Readonly<Record<ArenaChoice, VoteOutcome>> = {
  a: 'model_a',
  b: 'model_b',
  tie: 'tie',
  both_bad: 'both_bad',
};

/**
 * Turns arena votes into pairwise matches: a and b are wins, tie and both_bad are ½ each (both-bad
 * votes stay visible as such, for the per-model both-bad rate). Votes carrying an excluded flag
 * are left out and counted.
 */
export function matchesFromArenaVotes(votes: Iterable<ArenaVote>, options: ArenaMatchOptions = {}): ArenaMatches {
  const excluded = new Set(options.excludeFlags ?? DEFAULT_EXCLUDED_FLAGS);
  const matches: PairwiseVote[] = [];
  const excludedByFlag: Record<string, number> = {};
  for (const vote of votes) {
    const flag = vote.flags?.find((candidate) => excluded.has(candidate));
    if (flag !== undefined) {
      excludedByFlag[flag] = (excludedByFlag[flag] ?? 0) + 1;
      continue;
    }
    matches.push({
      modelA: vote.modelA,
      modelB: vote.modelB,
      outcome: OUTCOME_OF_CHOICE[vote.choice],
      style: vote.style,
    });
  }
  return { matches, excludedByFlag };
}

/** One like or dislike on one message of a duel. */
export interface ArenaReaction {
  /** Groups the reactions of one conversation pair (duel). */
  duelId: string;
  modelA: string;
  modelB: string;
  side: 'a' | 'b';
  liked: boolean;
  /** Position of the reacted message in the conversation (0 = first answer). */
  messageRank: number;
}

/**
 * Turns like/dislike reactions into matches with compar:IA's rules (ranking_methods, 2025),
 * one match per duel:
 * - one reaction: a like makes its side win, a dislike makes it lose;
 * - two reactions on the same side: two likes win, two dislikes lose; a like and a dislike win
 *   if the like came on an earlier message than the dislike, and lose otherwise;
 * - two reactions on opposite sides: a like and a dislike make the liked side win; two likes
 *   make the side liked on the earlier message win (same message: a tie), two dislikes make the
 *   side disliked earlier lose (same message: a tie);
 * - three or more reactions: ignored.
 * Off by default in the leaderboard: reactions are not votes, and a duel can have both.
 */
export function matchesFromReactions(reactions: Iterable<ArenaReaction>): PairwiseVote[] {
  const byDuel = new Map<string, ArenaReaction[]>();
  for (const reaction of reactions) {
    const group = byDuel.get(reaction.duelId);
    if (group) group.push(reaction);
    else byDuel.set(reaction.duelId, [reaction]);
  }
  const matches: PairwiseVote[] = [];
  for (const group of byDuel.values()) {
    const winner = reactionWinner(group);
    if (winner === undefined) continue;
    const first = group[0]!;
    matches.push({ modelA: first.modelA, modelB: first.modelB, outcome: winner });
  }
  return matches;
}

function sideWins(side: 'a' | 'b'): VoteOutcome {
  return side === 'a' ? 'model_a' : 'model_b';
}

function sideLoses(side: 'a' | 'b'): VoteOutcome {
  return side === 'a' ? 'model_b' : 'model_a';
}

function reactionWinner(group: readonly ArenaReaction[]): VoteOutcome | undefined {
  if (group.length === 1) {
    const only = group[0]!;
    return only.liked ? sideWins(only.side) : sideLoses(only.side);
  }
  if (group.length !== 2) return undefined;
  const [first, second] = group as [ArenaReaction, ArenaReaction];
  if (first.side === second.side) {
    if (first.liked && second.liked) return sideWins(first.side);
    if (!first.liked && !second.liked) return sideLoses(first.side);
    const like = first.liked ? first : second;
    const dislike = first.liked ? second : first;
    return like.messageRank < dislike.messageRank ? sideWins(first.side) : sideLoses(first.side);
  }
  if (first.liked !== second.liked) return sideWins(first.liked ? first.side : second.side);
  if (first.messageRank === second.messageRank) return 'tie';
  const earlier = first.messageRank < second.messageRank ? first : second;
  return first.liked ? sideWins(earlier.side) : sideLoses(earlier.side);
}
