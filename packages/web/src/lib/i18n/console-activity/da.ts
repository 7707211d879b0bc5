import type { fr } from './fr';

/** Messages of the console-activity area in this language: the keys of the French file, type-checked. */
export const da: Record<keyof typeof fr, string> = {
  'console.activity.nav': 'Aktivitet',
  'console.activity.title': 'Arenaens aktivitet',
  'console.activity.intro':
    'Samlede tal for de dueller, der er spillet her, læst fra databasen ved hver forespørgsel: alle instanser viser de samme. Ingen samtaletekst vises her.',
  'console.activity.period_label': 'Periode',
  'console.activity.period_option': 'Seneste {days} dage',
  'console.activity.period_note': 'Fra {from} til {to}, i UTC-dage; tallene er beregnet {date}.',
  'console.activity.loading': 'Henter tallene…',
  'console.activity.failed': 'Tallene kunne ikke hentes. Prøv igen om et øjeblik.',
  'console.activity.empty': 'Der er ikke spillet nogen duel her i denne periode.',
  'console.activity.imported':
    '{count} importerede dueller (compar:IA) dateret i denne periode indgår ikke i nogen af sidens tal: de er ikke spillet her.',
  'console.activity.imported_none': 'Importerede dueller (compar:IA) indgår ikke i nogen af sidens tal: de er ikke spillet her.',
  'console.activity.totals_title': 'I perioden',
  'console.activity.totals_duels': 'dueller',
  'console.activity.totals_votes': 'stemmer',
  'console.activity.totals_reactions': 'reaktioner',
  'console.activity.totals_reports': 'anmeldelser',
  'console.activity.days_title': 'Dag for dag',
  'console.activity.days_chart': 'Dueller, stemmer, reaktioner og anmeldelser pr. dag (anmeldelser stiplet); tabellen giver de samme tal.',
  'console.activity.col_reports': 'Anmeldelser',
  'console.activity.funnel_title': 'Fra besked til stemme',
  'console.activity.funnel_intro':
    'Dueller startet i perioden, fulgt til ende: en besked sendt, begge svar i første runde fuldførte, derefter en stemme.',
  'console.activity.funnel.prompts': 'Besked sendt',
  'console.activity.funnel.answered': 'Begge svar fuldførte',
  'console.activity.funnel.voted': 'Stemme afgivet',
  'console.activity.col_step': 'Trin',
  'console.activity.col_of_prompts': 'Andel af beskeder',
  'console.activity.languages_title': 'Sprog',
  'console.activity.languages_note': 'Periodens {screened} samtaler, der allerede er analyseret, hver under sit hovedsprog.',
  'console.activity.topics_title': 'Emner',
  'console.activity.topics_note': 'En analyseret samtale tæller under hvert af sine emner.',
  'console.activity.topics_none': 'Uden emne',
  'console.activity.modes_title': 'Tilstande',
  'console.activity.models_title': 'Fejl pr. model',
  'console.activity.models_note':
    'Svarene i de runder, der startede i perioden. Fejlrate = fejlede svar ÷ svar. Et svar, der blev stoppet, fordi den anden model fejlede, er ikke en fejl hos dets egen model.',
  'console.activity.models_empty': 'Ingen svar i perioden.',
  'console.activity.col_sides': 'Svar',
  'console.activity.col_complete': 'Fuldførte',
  'console.activity.col_failed': 'Fejlede',
  'console.activity.col_cancelled': 'Stoppede',
  'console.activity.col_failure_rate': 'Fejlrate',
};
