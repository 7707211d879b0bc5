import type { fr } from './fr';

/** Swedish messages of the population survey and weighted board: the keys of the French file, type-checked. */
export const sv: Record<keyof typeof fr, string> = {
  'survey.title': 'Tre frågor, en gång',
  'survey.intro':
    'Frivilligt och anonymt: dina svar används bara för att vikta rankningen så att den liknar befolkningen. De raderas med dina dueller om du raderar dem.',
  'survey.send': 'Skicka',
  'survey.skip': 'Hoppa över',
  'survey.incomplete': 'Besvara varje fråga, eller hoppa över.',
  'survey.thanks': 'Tack, den här enkäten kommer inte tillbaka.',
  'survey.failed': 'Dina svar kunde inte sparas. Försök igen senare.',
  'population.toggle': 'Rankning viktad efter befolkningen',
  'population.explain':
    'Röster från besökare som besvarade enkäten, viktade så att deras ålder, kön och utbildning väger det de gör i befolkningen (källa: {source}). Intervallen tar hänsyn till vikterna och till samma besökares upprepade röster.',
  'population.ess': 'Effektivt antal röster: {n}',
  'population.share': 'Andel röster med svar: {share}',
  'population.design_effect': 'Designeffekt: {value}',
  'population.too_few_votes': 'Visas inte än: det krävs minst {min} röster från besökare som svarat, det finns {n}.',
  'population.too_few_visitors': 'Visas inte än: det krävs minst {min} besökare som svarat, det finns {n}.',
  'population.margin_unreachable': 'Visas inte än: ingen har ännu gett vissa svar, så befolkningen kan inte återskapas.',
  'population.col.rank': 'Placering',
  'population.col.model': 'Modell',
  'population.col.rating': 'Poäng',
  'population.col.interval': '95 %-intervall',
};
