import type { fr } from './fr';

/** Messages of the console-activity area in this language: the keys of the French file, type-checked. */
export const sv: Record<keyof typeof fr, string> = {
  'console.activity.nav': 'Aktivitet',
  'console.activity.title': 'Arenans aktivitet',
  'console.activity.intro':
    'Sammanställda siffror om duellerna som spelats här, lästa ur databasen vid varje förfrågan: alla instanser visar samma. Ingen samtalstext visas här.',
  'console.activity.period_label': 'Period',
  'console.activity.period_option': 'Senaste {days} dagarna',
  'console.activity.period_note': 'Från {from} till {to}, i UTC-dagar; siffrorna beräknades {date}.',
  'console.activity.loading': 'Hämtar siffrorna…',
  'console.activity.failed': 'Siffrorna kunde inte hämtas. Försök igen om en stund.',
  'console.activity.empty': 'Ingen duell har spelats här under perioden.',
  'console.activity.imported':
    '{count} importerade dueller (compar:IA) daterade inom perioden räknas inte i någon av sidans siffror: de spelades inte här.',
  'console.activity.imported_none': 'Importerade dueller (compar:IA) räknas inte i någon av sidans siffror: de spelades inte här.',
  'console.activity.totals_title': 'Under perioden',
  'console.activity.totals_duels': 'dueller',
  'console.activity.totals_votes': 'röster',
  'console.activity.totals_reactions': 'reaktioner',
  'console.activity.totals_reports': 'anmälningar',
  'console.activity.days_title': 'Dag för dag',
  'console.activity.days_chart': 'Dueller, röster, reaktioner och anmälningar per dag (anmälningar streckade); tabellen ger samma siffror.',
  'console.activity.col_reports': 'Anmälningar',
  'console.activity.funnel_title': 'Från meddelande till röst',
  'console.activity.funnel_intro':
    'Duellerna som startade under perioden, följda till slutet: ett meddelande skickat, båda svaren i första omgången kompletta, sedan en röst.',
  'console.activity.funnel.prompts': 'Meddelande skickat',
  'console.activity.funnel.answered': 'Båda svaren kompletta',
  'console.activity.funnel.voted': 'Röst lagd',
  'console.activity.col_step': 'Steg',
  'console.activity.col_of_prompts': 'Andel av meddelandena',
  'console.activity.languages_title': 'Språk',
  'console.activity.languages_note': 'Periodens {screened} samtal som redan analyserats, vart och ett under sitt huvudspråk.',
  'console.activity.topics_title': 'Ämnen',
  'console.activity.topics_note': 'Ett analyserat samtal räknas under vart och ett av sina ämnen.',
  'console.activity.topics_none': 'Utan ämne',
  'console.activity.modes_title': 'Lägen',
  'console.activity.models_title': 'Fel per modell',
  'console.activity.models_note':
    'Svaren i de omgångar som startade under perioden. Felfrekvens = misslyckade svar ÷ svar. Ett svar som avbröts för att den andra modellen misslyckades är inte ett fel hos sin egen modell.',
  'console.activity.models_empty': 'Inga svar under perioden.',
  'console.activity.col_sides': 'Svar',
  'console.activity.col_complete': 'Kompletta',
  'console.activity.col_failed': 'Misslyckade',
  'console.activity.col_cancelled': 'Avbrutna',
  'console.activity.col_failure_rate': 'Felfrekvens',
};
