/**
 * The decisions of the optimised preference set (docs/datasets.md#optimised-preference-set): how
 * the judge's verdicts in both orders combine, which rows are kept, which original reply is
 * `rejected` and which `rejected_2`, and how strong each preference is. Pure: the pipeline gathers
 * the model calls' answers and asks these rules what they mean.
 */

export const MAXX_SUBSETS = ['arena-general', 'arena-both_bad', 'reactions'] as const;
export type MaxxSubset = (typeof MAXX_SUBSETS)[number];

export const PREF_STRENGTHS = ['strong', 'medium', 'weak'] as const;
export type MaxxPrefStrength = (typeof PREF_STRENGTHS)[number];

/**
 * One verdict of the blind judge on one ordering of a pair, already mapped from its A/B positions
 * to the replies: which one is better on substance, and how sure the judge is (1 = barely, 5 = certain).
 */
export interface PairVerdict {
  preferred: 'optimal' | 'original' | 'tie';
  confidence: number;
}

/** The two orderings of one pair: the optimal reply shown first (as A), then second (as B). */
export interface BothOrders {
  optimalFirst: PairVerdict;
  optimalSecond: PairVerdict;
}

/**
 * What the two orderings say together.
 * - `win`: both prefer the optimal reply; `margin` is the mean confidence (1–5).
 * - `inconsistent`: the orderings contradict each other (one prefers each reply): the judge followed
 *   the position, not the content, so the pair proves nothing and is not a win.
 * - `no-win`: neither contradiction nor a win (a tie in either order, or the original preferred in both).
 */
export type PairOutcome = { kind: 'win'; margin: number } | { kind: 'inconsistent' } | { kind: 'no-win' };

/** Combines the judge's two orderings of one pair (see {@link PairOutcome}). */
export function pairOutcome({ optimalFirst, optimalSecond }: BothOrders): PairOutcome {
  if (optimalFirst.preferred === 'optimal' && optimalSecond.preferred === 'optimal') {
    return { kind: 'win', margin: (clampConfidence(optimalFirst.confidence) + clampConfidence(optimalSecond.confidence)) / 2 };
  }
  const preferences = new Set([optimalFirst.preferred, optimalSecond.preferred]);
  if (preferences.has('optimal') && preferences.has('original')) return { kind: 'inconsistent' };
  return { kind: 'no-win' };
}

/** Whether the two orderings agree (same verdict once mapped to the replies): the card's position-consistency rate. */
export function isPositionConsistent({ optimalFirst, optimalSecond }: BothOrders): boolean {
  return optimalFirst.preferred === optimalSecond.preferred;
}

/** The mean confidence from which a consistent win is a `strong` preference; below it, `medium`. */
export const STRONG_MARGIN = 4;

/** The strength of a consistent win over an arena reply. */
export function marginStrength(margin: number): MaxxPrefStrength {
  return margin >= STRONG_MARGIN ? 'strong' : 'medium';
}

/** An original reply of an arena row, with the judging of the optimal reply against it. */
export interface JudgedOriginal {
  /** Which side of the duel it was (ties between equal margins are broken by side, `a` first). */
  side: 'a' | 'b';
  text: string;
  judging: BothOrders;
}

export type ArenaDecision =
  | { keep: true; rejected: JudgedOriginal; rejected2: JudgedOriginal | null; prefStrength: MaxxPrefStrength }
  | { keep: false; reason: 'lost' | 'inconsistent' | 'no original' };

/**
 * An arena row is kept only when the optimal reply beats every original reply in both orders.
 * `rejected` is the harder original, the one the optimal beat by the smaller margin (closer to the
 * optimal); `rejected_2` is the other. The strength is that of the win over `rejected`.
 */
export function decideArenaRow(originals: readonly JudgedOriginal[]): ArenaDecision {
  if (originals.length === 0) return { keep: false, reason: 'no original' };
  const outcomes = originals.map((original) => ({ original, outcome: pairOutcome(original.judging) }));
  const wins: { original: JudgedOriginal; margin: number }[] = [];
  for (const { original, outcome } of outcomes) {
    if (outcome.kind === 'inconsistent') return { keep: false, reason: 'inconsistent' };
    if (outcome.kind === 'no-win') return { keep: false, reason: 'lost' };
    wins.push({ original, margin: outcome.margin });
  }
  wins.sort((left, right) => left.margin - right.margin || left.original.side.localeCompare(right.original.side));
  const [hardest, other] = wins as [(typeof wins)[number], ...(typeof wins)[number][]];
  return { keep: true, rejected: hardest.original, rejected2: other?.original ?? null, prefStrength: marginStrength(hardest.margin) };
}

/** The critic's verdict on a visitor's complaint about a disliked answer. */
export type ComplaintVerdict = 'valid' | 'partly' | 'mistaken';

/** A valid complaint makes a strong pair, a partly valid one a medium pair, a mistaken one a weak pair. */
export function complaintStrength(verdict: ComplaintVerdict): MaxxPrefStrength {
  switch (verdict) {
    case 'valid':
      return 'strong';
    case 'partly':
      return 'medium';
    case 'mistaken':
      return 'weak';
  }
}

export type ReactionDecision =
  { keep: true; prefStrength: MaxxPrefStrength } | { keep: false; reason: 'defect not fixed' | 'lost' | 'inconsistent' };

/**
 * A reactions row is kept when the optimal reply fixes the defect the visitor flagged (the critic
 * says so) and the judge prefers it to the disliked answer in both orders. Its strength says how far
 * the visitor's complaint was right, not how much better the optimal is.
 */
export function decideReactionRow(input: { fixesDefect: boolean; judging: BothOrders; complaint: ComplaintVerdict }): ReactionDecision {
  if (!input.fixesDefect) return { keep: false, reason: 'defect not fixed' };
  const outcome = pairOutcome(input.judging);
  if (outcome.kind === 'inconsistent') return { keep: false, reason: 'inconsistent' };
  if (outcome.kind === 'no-win') return { keep: false, reason: 'lost' };
  return { keep: true, prefStrength: complaintStrength(input.complaint) };
}

/** The critic's absolute rubric: each criterion must hold for a reply to pass the gate. */
export interface CriticRubric {
  correct: boolean;
  complete: boolean;
  followsInstructions: boolean;
  rightLanguage: boolean;
  noInventedFacts: boolean;
}

export const RUBRIC_CRITERIA = ['correct', 'complete', 'followsInstructions', 'rightLanguage', 'noInventedFacts'] as const;

/** The criteria a reply fails (none: it passes the gate). */
export function failedCriteria(rubric: CriticRubric): (keyof CriticRubric)[] {
  return RUBRIC_CRITERIA.filter((criterion) => !rubric[criterion]);
}

/** The subset of a vote: both-bad votes make the `arena-both_bad` subset, every other outcome `arena-general`. */
export function subsetOfVote(choice: 'a' | 'b' | 'tie' | 'both_bad'): MaxxSubset {
  return choice === 'both_bad' ? 'arena-both_bad' : 'arena-general';
}

function clampConfidence(confidence: number): number {
  return Math.min(5, Math.max(1, Number.isFinite(confidence) ? confidence : 1));
}
