import type { fr } from './fr';

/** Messages of the honesty area in this language: the keys of the French file, type-checked. */
export const da: Record<keyof typeof fr, string> = {
  'honesty.thanks': 'Tak for din stemme!',
  'honesty.energy_ratio': '{a} brugte {ratio} gange så meget energi som {b}.',
  'honesty.energy_same': '{a} og {b} brugte omtrent lige meget energi.',
  'honesty.energy_class': 'Energiklasse',
  'honesty.energy_class_answer': 'Energiklasse pr. svar',
  'honesty.energy_class_value': 'Klasse {class} (fra A, den mest sparsommelige, til E)',
  'honesty.energy_class_help':
    'A: den femtedel af katalogets modeller, der bruger mindst energi på et svar; E: den femtedel, der bruger mest.',
  'honesty.votes_total': 'Stemmer: {n}',
  'honesty.votes_counted': '({n} tæller med i ranglisten)',
  'honesty.empty': 'Ingen modeller at rangordne endnu:',
  'honesty.empty_link': 'stem i arenaen!',
  'honesty.votes_needed': 'Stemmer: {n}, heraf {counted} talt med i ranglisten ({min} kræves).',
  'honesty.catching_up': 'Ranglisten læser de {total} gemte stemmer ({share} klaret): den vises om et øjeblik.',
  'honesty.details': 'Detaljer',
};
