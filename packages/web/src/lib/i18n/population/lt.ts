import type { fr } from './fr';

/** Lithuanian messages of the population survey and weighted board: the keys of the French file, type-checked. */
export const lt: Record<keyof typeof fr, string> = {
  'survey.title': 'Trys klausimai, vieną kartą',
  'survey.intro':
    'Neprivaloma ir anonimiška: jūsų atsakymai naudojami tik reitingui pasverti, kad jis atspindėtų gyventojus. Jie ištrinami kartu su jūsų dvikovomis, jei jas ištrinate.',
  'survey.send': 'Siųsti',
  'survey.skip': 'Praleisti',
  'survey.incomplete': 'Atsakykite į kiekvieną klausimą arba praleiskite.',
  'survey.thanks': 'Ačiū, ši apklausa daugiau nebus rodoma.',
  'survey.failed': 'Jūsų atsakymų išsaugoti nepavyko. Bandykite vėliau.',
  'population.toggle': 'Reitingas, pasvertas pagal gyventojus',
  'population.explain':
    'Apklausą atsakiusių lankytojų balsai, pasverti taip, kad jų amžius, lytis ir išsilavinimas svertų tiek, kiek gyventojų visumoje (šaltinis: {source}). Intervalai atsižvelgia į svorius ir pakartotinius to paties lankytojo balsus.',
  'population.ess': 'Efektyvus balsų skaičius: {n}',
  'population.share': 'Balsų su atsakymais dalis: {share}',
  'population.design_effect': 'Imties plano efektas: {value}',
  'population.too_few_votes': 'Dar nerodoma: reikia bent {min} atsakiusių lankytojų balsų, dabar yra {n}.',
  'population.too_few_visitors': 'Dar nerodoma: reikia bent {min} atsakiusių lankytojų, dabar yra {n}.',
  'population.margin_unreachable': 'Dar nerodoma: kai kurių atsakymų dar niekas nepasirinko, todėl gyventojų sudėties atkurti negalima.',
  'population.col.rank': 'Vieta',
  'population.col.model': 'Modelis',
  'population.col.rating': 'Balas',
  'population.col.interval': '95 % intervalas',
};
