import type { fr } from './fr';

/** Swedish messages of the turn-verdicts area: the keys of the French file, type-checked. */
export const sv: Record<keyof typeof fr, string> = {
  'verdict.legend': 'Vilket svar föredrar du i den här omgången? (frivilligt)',
  'verdict.a_better': 'A är bättre',
  'verdict.b_better': 'B är bättre',
  'verdict.both_good': 'Båda är bra',
  'verdict.both_bad': 'Båda är dåliga',
  'verdict.saved': 'Ditt omdöme om omgång {turn} är sparat',
  'verdict.failed': 'Ditt omdöme sparades inte: försök igen.',
  'verdict.hint': 'Den slutliga rösten nedan behövs fortfarande för att se modellerna.',
};
