import type { fr } from './fr';

/** Lithuanian messages of the turn-verdicts area: the keys of the French file, type-checked. */
export const lt: Record<keyof typeof fr, string> = {
  'verdict.legend': 'Kuris šio rato atsakymas jums labiau patinka? (neprivaloma)',
  'verdict.a_better': 'A geresnis',
  'verdict.b_better': 'B geresnis',
  'verdict.both_good': 'Abu geri',
  'verdict.both_bad': 'Abu blogi',
  'verdict.saved': 'Jūsų {turn} rato įvertinimas išsaugotas',
  'verdict.failed': 'Jūsų įvertinimas neišsaugotas: bandykite dar kartą.',
  'verdict.hint': 'Norint sužinoti modelius, vis tiek reikia galutinio balso žemiau.',
};
