import type { fr } from './fr';

/** Messages of the honesty area in this language: the keys of the French file, type-checked. */
export const sv: Record<keyof typeof fr, string> = {
  'honesty.thanks': 'Tack för din röst!',
  'honesty.energy_ratio': '{a} använde {ratio} gånger så mycket energi som {b}.',
  'honesty.energy_same': '{a} och {b} använde ungefär lika mycket energi.',
  'honesty.energy_class': 'Energiklass',
  'honesty.energy_class_answer': 'Energiklass per svar',
  'honesty.energy_class_value': 'Klass {class} (från A, den snålaste, till E)',
  'honesty.energy_class_help':
    'A: den femtedel av katalogens modeller som använder minst energi för ett svar; E: den femtedel som använder mest.',
  'honesty.votes_total': 'Röster: {n}',
  'honesty.votes_counted': '({n} räknas i topplistan)',
  'honesty.empty': 'Inga modeller att rangordna än:',
  'honesty.empty_link': 'rösta i arenan!',
  'honesty.votes_needed': 'Röster: {n}, varav {counted} räknas i topplistan ({min} behövs).',
  'honesty.catching_up': 'Topplistan läser de {total} sparade rösterna ({share} klart): den visas om en stund.',
  'honesty.details': 'Detaljer',
};
