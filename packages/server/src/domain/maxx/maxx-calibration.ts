/**
 * How far to trust the judge (docs/datasets.md#judge-calibration): with `--calibrate`, the judge
 * also compares the two original replies a visitor saw, in both orders, and we count how often its
 * verdict is the visitor's. Pure: the pipeline gathers the verdicts, these rules say what agrees.
 */

/** A preference between the two sides of a duel. */
export type SidePreference = 'a' | 'b' | 'tie';

/** The judge's two orderings of one pair, as the side each preferred. */
export interface CalibrationOrders {
  /** Side a shown as A, side b as B. */
  aFirst: SidePreference;
  /** Side b shown as A, side a as B. */
  bFirst: SidePreference;
}

/** What the visitor and the judge said about one pair; `judge` is null when its answers were unusable. */
export interface CalibrationRecord {
  human: SidePreference;
  judge: SidePreference | 'inconsistent' | null;
  /**
   * The conversation and turn whose replies were judged: a vote and a dislike of one turn share it,
   * and the pair counts once (records without a key each count).
   */
  key?: string;
}

/**
 * The visitor's preference in a vote. A both-bad vote prefers neither reply: the judge agrees
 * with it only by calling the pair a tie.
 */
export function voteSidePreference(choice: 'a' | 'b' | 'tie' | 'both_bad'): SidePreference {
  return choice === 'a' || choice === 'b' ? choice : 'tie';
}

/**
 * The visitor's preference implied by a dislike: the other reply of the same turn, unless the
 * visitor disliked that one too (then neither).
 */
export function dislikeSidePreference(dislikedSide: 'a' | 'b', otherAlsoDisliked: boolean): SidePreference {
  if (otherAlsoDisliked) return 'tie';
  return dislikedSide === 'a' ? 'b' : 'a';
}

/**
 * The judge's verdict from its two orderings: a side when both prefer it, inconsistent when they
 * prefer opposite sides (it followed the position), a tie otherwise (a tie in either order).
 */
export function judgeSidePreference({ aFirst, bFirst }: CalibrationOrders): SidePreference | 'inconsistent' {
  if (aFirst === bFirst) return aFirst;
  if (aFirst !== 'tie' && bFirst !== 'tie') return 'inconsistent';
  return 'tie';
}

/** Agreement over a set of pairs, with the Wilson score interval at 95 %. Pairs the judge could not answer are left out. */
export interface Agreement {
  pairs: number;
  agreed: number;
  /** Pairs whose two orderings contradicted each other (counted as disagreements). */
  inconsistent: number;
  rate: number | null;
  low: number | null;
  high: number | null;
}

export function agreementOf(records: readonly CalibrationRecord[]): Agreement {
  const judged = onePerPair(records).filter((record) => record.judge !== null);
  const agreed = judged.filter((record) => record.judge === record.human).length;
  const inconsistent = judged.filter((record) => record.judge === 'inconsistent').length;
  if (judged.length === 0) return { pairs: 0, agreed: 0, inconsistent: 0, rate: null, low: null, high: null };
  const [low, high] = wilsonInterval(agreed, judged.length);
  return { pairs: judged.length, agreed, inconsistent, rate: agreed / judged.length, low, high };
}

/** Each judged pair once: of records sharing a key, the first (the caller lists votes before dislikes). */
export function onePerPair(records: readonly CalibrationRecord[]): CalibrationRecord[] {
  const seen = new Set<string>();
  return records.filter((record) => {
    if (record.key === undefined) return true;
    if (seen.has(record.key)) return false;
    seen.add(record.key);
    return true;
  });
}

/** The two-sided 95 % normal quantile. */
const Z_95 = 1.959963984540054;

/**
 * Wilson's score interval for `successes` of `trials` (95 %): unlike the normal approximation it
 * stays within [0, 1] and is honest for small samples and rates near 0 or 1.
 */
export function wilsonInterval(successes: number, trials: number, z = Z_95): [number, number] {
  if (trials === 0) return [0, 1];
  const rate = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (rate + z2 / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((rate * (1 - rate)) / trials + z2 / (4 * trials * trials))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
