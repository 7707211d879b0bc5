import { wilsonInterval } from './maxx-calibration';

/**
 * People checking the optimised set (docs/datasets.md#people-checks): a visitor saw a row's
 * optimised reply and an original reply, blind and in random order, and chose. The judges kept the
 * row because they preferred the optimised reply; each choice says whether a person agrees. Pure.
 */

export interface PeopleCheck {
  /** The item, without its run. */
  itemKey: string;
  /** sha256 of the optimised reply shown: a check counts for a row only when its reply is that one. */
  optimalDigest: string;
  optimalSide: 'a' | 'b';
  choice: 'a' | 'b' | 'tie';
  /** Why the choice does not count (`too_fast`), or null. */
  flag: string | null;
}

export type PeopleVerdict = 'optimal' | 'original' | 'tie';

export function peopleVerdict(check: Pick<PeopleCheck, 'optimalSide' | 'choice'>): PeopleVerdict {
  if (check.choice === 'tie') return 'tie';
  return check.choice === check.optimalSide ? 'optimal' : 'original';
}

/**
 * A fast reader's pace, in characters a second: about 250 words a minute (Brysbaert 2019, silent
 * reading of non-fiction: 238 words a minute on average) at six characters a word is 25; we allow
 * skimming at twice that.
 */
export const SKIMMING_CHARS_PER_SECOND = 50;

/** The shortest time in which a person can have read two replies, in ms (never under 2 s). */
export function minReadingMs(charsA: number, charsB: number): number {
  return Math.max(2000, ((charsA + charsB) / SKIMMING_CHARS_PER_SECOND) * 1000);
}

export interface PeopleAgreement {
  checks: number;
  optimal: number;
  original: number;
  ties: number;
  /** The judges' agreement with people: a tie counts as a disagreement. Null with no check. */
  withTies: { rate: number; low: number; high: number } | null;
  /** The same without the ties: people who took a side. Null when none did. */
  withoutTies: { pairs: number; rate: number; low: number; high: number } | null;
}

/** The judges kept every row of the set for its optimised reply: agreement is the share of people who chose it too. */
export function peopleAgreement(verdicts: readonly PeopleVerdict[]): PeopleAgreement {
  const optimal = verdicts.filter((verdict) => verdict === 'optimal').length;
  const original = verdicts.filter((verdict) => verdict === 'original').length;
  const ties = verdicts.length - optimal - original;
  const interval = (agreed: number, of: number) => {
    const [low, high] = wilsonInterval(agreed, of);
    return { rate: agreed / of, low, high };
  };
  return {
    checks: verdicts.length,
    optimal,
    original,
    ties,
    withTies: verdicts.length === 0 ? null : interval(optimal, verdicts.length),
    withoutTies: optimal + original === 0 ? null : { pairs: optimal + original, ...interval(optimal, optimal + original) },
  };
}
