import type { fr } from './fr';

/** English messages of the population survey and weighted board: the keys of the French file, type-checked. */
export const en: Record<keyof typeof fr, string> = {
  'survey.title': 'Three questions, once',
  'survey.intro':
    'Optional and anonymous: your answers only weight the ranking so that it resembles the population. They go with your duels if you erase them.',
  'survey.send': 'Send',
  'survey.skip': 'Skip',
  'survey.incomplete': 'Answer every question, or skip.',
  'survey.thanks': 'Thank you, this survey will not come back.',
  'survey.failed': 'Your answers could not be saved. Try again later.',
  'population.toggle': 'Ranking weighted to the population',
  'population.explain':
    "Votes of the visitors who answered the survey, weighted so that their ages, genders and qualifications weigh what they do in the population (source: {source}). The intervals account for the weights and for one visitor's repeated votes.",
  'population.ess': 'Effective number of votes: {n}',
  'population.share': 'Share of votes with answers: {share}',
  'population.design_effect': 'Design effect: {value}',
  'population.too_few_votes': 'Not shown yet: it needs at least {min} votes from visitors who answered, there are {n}.',
  'population.too_few_visitors': 'Not shown yet: it needs at least {min} visitors who answered, there are {n}.',
  'population.margin_unreachable': 'Not shown yet: nobody has given some of the answers yet, so the population cannot be matched.',
  'population.col.rank': 'Rank',
  'population.col.model': 'Model',
  'population.col.rating': 'Score',
  'population.col.interval': '95 % interval',
};
