import type { fr } from './fr';

/** Lithuanian messages of the capabilities area: the keys of the French file, type-checked. */
export const lt: Record<keyof typeof fr, string> = {
  'capability.filter': 'Gebėjimas',
  'capability.any': 'Visi',
  'capability.hard_prompt': 'Sudėtingi klausimai',
  'capability.specificity': 'Tikslus prašymas',
  'capability.domain_knowledge': 'Srities žinios',
  'capability.complexity': 'Sudėtingumas',
  'capability.problem_solving': 'Problemų sprendimas',
  'capability.creativity': 'Kūrybiškumas',
  'capability.technical_accuracy': 'Techninis tikslumas',
  'capability.real_world_application': 'Praktinis taikymas',
  'capability.creative_writing': 'Kūrybinis rašymas',
  'capability.instruction_following': 'Nurodymų laikymasis',
  'capability.code': 'Programavimas',
  'capability.math': 'Matematika',
  'capability.multi_turn': 'Keli ėjimai',
  'capability.long_query': 'Ilgos užklausos',
  'capability.votes': '{label} (balsų: {n})',
};
