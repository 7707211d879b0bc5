/**
 * The decisions of the optimised preference set (docs/datasets.md#optimised-preference-set): how
 * the judge's verdicts in both orders combine, which rows are kept, which original reply is
 * `rejected` and which `rejected_2`, and how strong each preference is. Pure: the pipeline gathers
 * the model calls' answers and asks these rules what they mean.
 */

/**
 * The version of these rules: a run made under other rules is another run (its outcomes are not
 * reused). Raise it with any change to what a row keeps, drops or says.
 */
export const MAXX_RULES_VERSION = 2;

export const MAXX_SUBSETS = ['arena-general', 'arena-both_bad', 'reactions'] as const;
export type MaxxSubset = (typeof MAXX_SUBSETS)[number];

export const PREF_STRENGTHS = ['strong', 'medium', 'weak'] as const;
export type MaxxPrefStrength = (typeof PREF_STRENGTHS)[number];

/**
 * One verdict of one blind judge on one ordering of a pair, already mapped from its A/B positions to
 * the replies: which one is better on substance. The judge's own confidence is not used: a model's
 * stated certainty is not evidence (strength comes from independent judges agreeing).
 */
export interface PairVerdict {
  preferred: 'optimal' | 'original' | 'tie';
}

/** The two orderings of one pair by one judge: the optimal reply shown first (as A), then second (as B). */
export interface BothOrders {
  optimalFirst: PairVerdict;
  optimalSecond: PairVerdict;
}

/**
 * What one judge's two orderings say together.
 * - `win`: both prefer the optimal reply.
 * - `inconsistent`: the orderings contradict each other (one prefers each reply): the judge followed
 *   the position, not the content, so the pair proves nothing and is not a win.
 * - `no-win`: neither contradiction nor a win (a tie in either order, or the original preferred in both).
 */
export type PairOutcome = 'win' | 'inconsistent' | 'no-win';

/** Combines one judge's two orderings of one pair (see {@link PairOutcome}). */
export function pairOutcome({ optimalFirst, optimalSecond }: BothOrders): PairOutcome {
  if (optimalFirst.preferred === 'optimal' && optimalSecond.preferred === 'optimal') return 'win';
  const preferences = new Set([optimalFirst.preferred, optimalSecond.preferred]);
  if (preferences.has('optimal') && preferences.has('original')) return 'inconsistent';
  return 'no-win';
}

/** Whether the two orderings agree (same verdict once mapped to the replies): the card's position-consistency rate. */
export function isPositionConsistent({ optimalFirst, optimalSecond }: BothOrders): boolean {
  return optimalFirst.preferred === optimalSecond.preferred;
}

/**
 * What the panel of judges says of one pair (docs/datasets.md#judge-panel), each judge having read it
 * in both orders:
 * - `unanimous`: every judge wins in both orders;
 * - `majority`: more than half of the judges win in both orders and none prefers the original in
 *   both (a split panel: the preference holds, less firmly);
 * - `split`: some judge wins, but not a majority, or another prefers the original;
 * - `inconsistent`: no judge wins and at least one contradicted itself across the orders;
 * - `lost`: no judge wins (ties, or the original preferred).
 */
export type PanelOutcome = 'unanimous' | 'majority' | 'split' | 'inconsistent' | 'lost';

export function panelOutcome(judgings: readonly BothOrders[]): PanelOutcome {
  if (judgings.length === 0) throw new Error('a pair needs at least one judge');
  const outcomes = judgings.map(pairOutcome);
  const wins = outcomes.filter((outcome) => outcome === 'win').length;
  if (wins === judgings.length) return 'unanimous';
  const preferOriginal = judgings.some(
    ({ optimalFirst, optimalSecond }) => optimalFirst.preferred === 'original' && optimalSecond.preferred === 'original',
  );
  if (wins > judgings.length / 2 && !preferOriginal) return 'majority';
  if (wins > 0) return 'split';
  return outcomes.includes('inconsistent') ? 'inconsistent' : 'lost';
}

/** Whether a pair counts as won by the optimal reply: a unanimous panel, or a majority with no judge against. */
export function isPanelWin(outcome: PanelOutcome): outcome is 'unanimous' | 'majority' {
  return outcome === 'unanimous' || outcome === 'majority';
}

/**
 * The strength of a won arena pair: `strong` only when at least two independent judges each
 * preferred the optimal reply in both orders; one judge alone, or a majority, makes `medium`.
 */
export function panelStrength(outcome: 'unanimous' | 'majority', judges: number): MaxxPrefStrength {
  return outcome === 'unanimous' && judges >= STRONG_PANEL_SIZE ? 'strong' : 'medium';
}

/** The fewest unanimous judges whose win makes a `strong` arena pair. */
export const STRONG_PANEL_SIZE = 2;

/** An original reply of an arena row, with each judge's judging of the optimal reply against it. */
export interface JudgedOriginal {
  /** Which side of the duel it was (ties between equally hard originals are broken by side, `a` first). */
  side: 'a' | 'b';
  text: string;
  /** One entry per judge of the panel, in the panel's order. */
  judgings: readonly BothOrders[];
}

export type ArenaDecision =
  | { keep: true; rejected: JudgedOriginal; rejected2: JudgedOriginal | null; prefStrength: MaxxPrefStrength }
  | { keep: false; reason: 'lost' | 'inconsistent' | 'split panel' | 'no original' };

/** How many (judge, order) verdicts preferred the optimal reply: the fewer, the harder the original. */
function optimalVotes(judgings: readonly BothOrders[]): number {
  return judgings.reduce(
    (sum, { optimalFirst, optimalSecond }) =>
      sum + (optimalFirst.preferred === 'optimal' ? 1 : 0) + (optimalSecond.preferred === 'optimal' ? 1 : 0),
    0,
  );
}

/**
 * An arena row is kept only when the panel prefers the optimal reply to every original reply.
 * `rejected` is the harder original: the optimal won it less firmly (a weaker panel outcome, then
 * fewer verdicts for the optimal); when both were won as firmly (every unanimous panel), the one the
 * visitor preferred, which is the closer to a good reply; then side a. `rejected_2` is the other.
 * The strength is that of the win over `rejected`.
 */
export function decideArenaRow(originals: readonly JudgedOriginal[], visitorPreferred?: 'a' | 'b' | 'tie'): ArenaDecision {
  if (originals.length === 0) return { keep: false, reason: 'no original' };
  const wins: { original: JudgedOriginal; outcome: 'unanimous' | 'majority'; votes: number }[] = [];
  for (const original of originals) {
    const outcome = panelOutcome(original.judgings);
    if (!isPanelWin(outcome)) return { keep: false, reason: outcome === 'split' ? 'split panel' : outcome };
    wins.push({ original, outcome, votes: optimalVotes(original.judgings) });
  }
  const firmness = (outcome: 'unanimous' | 'majority') => (outcome === 'unanimous' ? 1 : 0);
  const preferred = (side: 'a' | 'b') => (side === visitorPreferred ? 0 : 1);
  wins.sort(
    (left, right) =>
      firmness(left.outcome) - firmness(right.outcome) ||
      left.votes - right.votes ||
      preferred(left.original.side) - preferred(right.original.side) ||
      left.original.side.localeCompare(right.original.side),
  );
  const [hardest, other] = wins as [(typeof wins)[number], ...(typeof wins)[number][]];
  return {
    keep: true,
    rejected: hardest.original,
    rejected2: other?.original ?? null,
    prefStrength: panelStrength(hardest.outcome, hardest.original.judgings.length),
  };
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
  { keep: true; prefStrength: MaxxPrefStrength } | { keep: false; reason: 'defect not fixed' | 'lost' | 'inconsistent' | 'split panel' };

/**
 * A reactions row is kept when the optimal reply fixes the defect the visitor flagged (the critic
 * says so; a complaint the critic finds mistaken needs no fix) and the panel prefers it to the disliked answer (unanimous, or a majority with no judge
 * against). Its strength says how far the visitor's complaint was right, not how much better the
 * optimal is; a split panel caps it at `medium`.
 */
export function decideReactionRow(input: {
  fixesDefect: boolean;
  judgings: readonly BothOrders[];
  complaint: ComplaintVerdict;
}): ReactionDecision {
  // A mistaken complaint flagged no real defect: there is nothing to fix, and the row is weak.
  if (!input.fixesDefect && input.complaint !== 'mistaken') return { keep: false, reason: 'defect not fixed' };
  const outcome = panelOutcome(input.judgings);
  if (!isPanelWin(outcome)) return { keep: false, reason: outcome === 'split' ? 'split panel' : outcome };
  const strength = complaintStrength(input.complaint);
  return { keep: true, prefStrength: outcome === 'majority' && strength === 'strong' ? 'medium' : strength };
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
