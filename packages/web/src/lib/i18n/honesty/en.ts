import type { fr } from './fr';

/** Messages of the honesty area in this language: the keys of the French file, type-checked. */
export const en: Record<keyof typeof fr, string> = {
  'honesty.thanks': 'Thank you for your vote!',
  'honesty.energy_ratio': '{a} used {ratio}× the energy of {b}.',
  'honesty.energy_same': '{a} and {b} used about the same energy.',
  'honesty.energy_class': 'Energy class',
  'honesty.energy_class_answer': 'Energy class per answer',
  'honesty.energy_class_value': 'Class {class} (from A, the most frugal, to E)',
  'honesty.energy_class_help':
    'A: the fifth of the catalogue’s models that uses the least energy for an answer; E: the fifth that uses the most.',
  'honesty.votes_total': 'Votes: {n}',
  'honesty.votes_counted': '({n} counted in the ranking)',
  'honesty.empty': 'No model to rank yet:',
  'honesty.empty_link': 'vote in the arena!',
  'honesty.votes_needed': 'Votes: {n}, {counted} of them counted in the ranking ({min} needed).',
  'honesty.catching_up': 'The leaderboard is reading the {total} stored votes ({share} done): it appears in a moment.',
  'honesty.details': 'Details',
};
