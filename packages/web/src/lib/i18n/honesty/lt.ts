import type { fr } from './fr';

/** Messages of the honesty area in this language: the keys of the French file, type-checked. */
export const lt: Record<keyof typeof fr, string> = {
  'honesty.thanks': 'Ačiū už jūsų balsą!',
  'honesty.energy_ratio': '{a} sunaudojo {ratio} karto daugiau energijos nei {b}.',
  'honesty.energy_same': '{a} ir {b} sunaudojo maždaug tiek pat energijos.',
  'honesty.energy_class': 'Energijos klasė',
  'honesty.energy_class_answer': 'Energijos klasė vienam atsakymui',
  'honesty.energy_class_value': '{class} klasė (nuo A – taupiausios – iki E)',
  'honesty.energy_class_help':
    'A – penktadalis katalogo modelių, kurie vienam atsakymui sunaudoja mažiausiai energijos; E – penktadalis, kurie sunaudoja daugiausiai.',
  'honesty.votes_total': 'Balsai: {n}',
  'honesty.votes_counted': '({n} įskaičiuoti į reitingą)',
  'honesty.empty': 'Kol kas nėra modelių, kuriuos būtų galima reitinguoti:',
  'honesty.empty_link': 'balsuokite arenoje!',
  'honesty.votes_needed': 'Balsai: {n}, iš jų {counted} įskaičiuoti į reitingą (reikia {min}).',
  'honesty.catching_up': 'Reitingas skaito {total} išsaugotų balsų (atlikta {share}): jis netrukus pasirodys.',
  'honesty.details': 'Išsami informacija',
};
