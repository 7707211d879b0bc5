import type { fr } from './fr';

/** English messages of the capabilities area: the keys of the French file, type-checked. */
export const en: Record<keyof typeof fr, string> = {
  'capability.filter': 'Capability',
  'capability.any': 'All',
  'capability.hard_prompt': 'Hard prompts',
  'capability.specificity': 'Specific request',
  'capability.domain_knowledge': 'Domain knowledge',
  'capability.complexity': 'Complexity',
  'capability.problem_solving': 'Problem solving',
  'capability.creativity': 'Creativity',
  'capability.technical_accuracy': 'Technical accuracy',
  'capability.real_world_application': 'Real-world use',
  'capability.creative_writing': 'Creative writing',
  'capability.instruction_following': 'Instruction following',
  'capability.code': 'Coding',
  'capability.math': 'Math',
  'capability.multi_turn': 'Multi-turn',
  'capability.long_query': 'Long queries',
  'capability.votes': '{label} ({n} votes)',
};
