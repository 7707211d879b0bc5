import type { fr } from './fr';

/** Danish messages of the turn-verdicts area: the keys of the French file, type-checked. */
export const da: Record<keyof typeof fr, string> = {
  'verdict.legend': 'Hvilket svar foretrækker du i denne runde? (valgfrit)',
  'verdict.a_better': 'A er bedre',
  'verdict.b_better': 'B er bedre',
  'verdict.both_good': 'Begge er gode',
  'verdict.both_bad': 'Begge er dårlige',
  'verdict.saved': 'Din vurdering af runde {turn} er gemt',
  'verdict.failed': 'Din vurdering blev ikke gemt: prøv igen.',
  'verdict.hint': 'Den endelige stemme nedenfor er stadig nødvendig for at se modellerne.',
};
