import type { fr } from './fr';

/** Swedish messages of the capabilities area: the keys of the French file, type-checked. */
export const sv: Record<keyof typeof fr, string> = {
  'capability.filter': 'Förmåga',
  'capability.any': 'Alla',
  'capability.hard_prompt': 'Svåra frågor',
  'capability.specificity': 'Precis begäran',
  'capability.domain_knowledge': 'Ämneskunskap',
  'capability.complexity': 'Komplexitet',
  'capability.problem_solving': 'Problemlösning',
  'capability.creativity': 'Kreativitet',
  'capability.technical_accuracy': 'Teknisk korrekthet',
  'capability.real_world_application': 'Praktisk användning',
  'capability.creative_writing': 'Kreativt skrivande',
  'capability.instruction_following': 'Följer instruktioner',
  'capability.code': 'Programmering',
  'capability.math': 'Matematik',
  'capability.multi_turn': 'Flera omgångar',
  'capability.long_query': 'Långa frågor',
  'capability.votes': '{label} ({n} röster)',
};
