import type { fr } from './fr';

/** English messages of the turn-verdicts area: the keys of the French file, type-checked. */
export const en: Record<keyof typeof fr, string> = {
  'verdict.legend': 'For this turn, which answer do you prefer? (optional)',
  'verdict.a_better': 'A is better',
  'verdict.b_better': 'B is better',
  'verdict.both_good': 'Both are good',
  'verdict.both_bad': 'Both are bad',
  'verdict.saved': 'Verdict on turn {turn} saved',
  'verdict.failed': 'Your verdict was not saved: please try again.',
  'verdict.hint': 'The final vote, below, is still needed to find out the models.',
};
