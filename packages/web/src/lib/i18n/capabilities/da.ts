import type { fr } from './fr';

/** Danish messages of the capabilities area: the keys of the French file, type-checked. */
export const da: Record<keyof typeof fr, string> = {
  'capability.filter': 'Evne',
  'capability.any': 'Alle',
  'capability.hard_prompt': 'Svære spørgsmål',
  'capability.specificity': 'Præcis forespørgsel',
  'capability.domain_knowledge': 'Fagviden',
  'capability.complexity': 'Kompleksitet',
  'capability.problem_solving': 'Problemløsning',
  'capability.creativity': 'Kreativitet',
  'capability.technical_accuracy': 'Teknisk præcision',
  'capability.real_world_application': 'Praktisk brug',
  'capability.creative_writing': 'Kreativ skrivning',
  'capability.instruction_following': 'Følger instrukser',
  'capability.code': 'Programmering',
  'capability.math': 'Matematik',
  'capability.multi_turn': 'Flere runder',
  'capability.long_query': 'Lange forespørgsler',
  'capability.votes': '{label} ({n} stemmer)',
};
