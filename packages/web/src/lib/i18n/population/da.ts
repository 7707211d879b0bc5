import type { fr } from './fr';

/** Danish messages of the population survey and weighted board: the keys of the French file, type-checked. */
export const da: Record<keyof typeof fr, string> = {
  'survey.title': 'Tre spørgsmål, én gang',
  'survey.intro':
    'Frivilligt og anonymt: dine svar bruges kun til at vægte ranglisten, så den ligner befolkningen. De slettes sammen med dine dueller, hvis du sletter dem.',
  'survey.send': 'Send',
  'survey.skip': 'Spring over',
  'survey.incomplete': 'Besvar hvert spørgsmål, eller spring over.',
  'survey.thanks': 'Tak, dette spørgeskema kommer ikke igen.',
  'survey.failed': 'Dine svar kunne ikke gemmes. Prøv igen senere.',
  'population.toggle': 'Rangliste vægtet efter befolkningen',
  'population.explain':
    'Stemmer fra besøgende, der besvarede spørgeskemaet, vægtet så deres alder, køn og uddannelse vejer det, de gør i befolkningen (kilde: {source}). Intervallerne tager højde for vægtene og for den samme besøgendes gentagne stemmer.',
  'population.ess': 'Effektivt antal stemmer: {n}',
  'population.share': 'Andel af stemmer med svar: {share}',
  'population.design_effect': 'Designeffekt: {value}',
  'population.too_few_votes': 'Vises endnu ikke: der kræves mindst {min} stemmer fra besøgende, der har svaret, der er {n}.',
  'population.too_few_visitors': 'Vises endnu ikke: der kræves mindst {min} besøgende, der har svaret, der er {n}.',
  'population.margin_unreachable': 'Vises endnu ikke: ingen har endnu givet visse svar, så befolkningen kan ikke genskabes.',
  'population.col.rank': 'Placering',
  'population.col.model': 'Model',
  'population.col.rating': 'Score',
  'population.col.interval': '95 %-interval',
};
