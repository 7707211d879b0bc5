import type { fr } from './fr';

/** Messages of the console-activity area in this language: the keys of the French file, type-checked. */
export const en: Record<keyof typeof fr, string> = {
  'console.activity.nav': 'Activity',
  'console.activity.title': 'Arena activity',
  'console.activity.intro':
    'Aggregate figures on the duels played here, read from the database at each request: every instance gives the same. No conversation text appears here.',
  'console.activity.period_label': 'Period',
  'console.activity.period_option': 'Last {days} days',
  'console.activity.period_note': 'From {from} to {to}, in UTC days; figures computed on {date}.',
  'console.activity.loading': 'Loading the figures…',
  'console.activity.failed': 'The figures could not be loaded. Try again in a moment.',
  'console.activity.empty': 'No duel was played here in this period.',
  'console.activity.imported':
    '{count} imported duels (compar:IA) dated in this period are counted in none of this page’s figures: they were not played here.',
  'console.activity.imported_none': 'Imported duels (compar:IA) are counted in none of this page’s figures: they were not played here.',
  'console.activity.totals_title': 'Over the period',
  'console.activity.totals_duels': 'duels',
  'console.activity.totals_votes': 'votes',
  'console.activity.totals_reactions': 'reactions',
  'console.activity.totals_reports': 'reports',
  'console.activity.days_title': 'Day by day',
  'console.activity.days_chart': 'Duels, votes, reactions and reports per day (reports dashed); the table gives the same figures.',
  'console.activity.col_reports': 'Reports',
  'console.activity.funnel_title': 'From prompt to vote',
  'console.activity.funnel_intro':
    'The duels started in the period, followed to the end: a prompt sent, both answers of the first turn complete, then a vote.',
  'console.activity.funnel.prompts': 'Prompt sent',
  'console.activity.funnel.answered': 'Both answers complete',
  'console.activity.funnel.voted': 'Vote given',
  'console.activity.col_step': 'Step',
  'console.activity.col_of_prompts': 'Share of prompts',
  'console.activity.languages_title': 'Languages',
  'console.activity.languages_note': 'The period’s {screened} conversations analysed so far, each under its main language.',
  'console.activity.topics_title': 'Topics',
  'console.activity.topics_note': 'An analysed conversation counts under each of its topics.',
  'console.activity.topics_none': 'No topic',
  'console.activity.modes_title': 'Modes',
  'console.activity.models_title': 'Failures per model',
  'console.activity.models_note':
    'The answers of the turns started in the period. Failure rate = failed answers ÷ answers. An answer stopped because the other model failed is not a failure of its own model.',
  'console.activity.models_empty': 'No answer in this period.',
  'console.activity.col_sides': 'Answers',
  'console.activity.col_complete': 'Complete',
  'console.activity.col_failed': 'Failed',
  'console.activity.col_cancelled': 'Stopped',
  'console.activity.col_failure_rate': 'Failure rate',
};
