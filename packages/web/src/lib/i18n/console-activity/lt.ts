import type { fr } from './fr';

/** Messages of the console-activity area in this language: the keys of the French file, type-checked. */
export const lt: Record<keyof typeof fr, string> = {
  'console.activity.nav': 'Veikla',
  'console.activity.title': 'Arenos veikla',
  'console.activity.intro':
    'Suvestiniai čia sužaistų dvikovų skaičiai, kiekvieną kartą nuskaitomi iš duomenų bazės: visi egzemplioriai rodo tuos pačius. Pokalbių tekstų čia nėra.',
  'console.activity.period_label': 'Laikotarpis',
  'console.activity.period_option': 'Paskutinės {days} d.',
  'console.activity.period_note': 'Nuo {from} iki {to}, UTC dienomis; skaičiai apskaičiuoti {date}.',
  'console.activity.loading': 'Įkeliami skaičiai…',
  'console.activity.failed': 'Nepavyko įkelti skaičių. Bandykite dar kartą po akimirkos.',
  'console.activity.empty': 'Per šį laikotarpį čia nebuvo sužaista nė vienos dvikovos.',
  'console.activity.imported':
    'Importuotos dvikovos (compar:IA), datuotos šiuo laikotarpiu ({count}), neįtrauktos į jokį šio puslapio skaičių: jos buvo sužaistos ne čia.',
  'console.activity.imported_none': 'Importuotos dvikovos (compar:IA) neįtrauktos į jokį šio puslapio skaičių: jos buvo sužaistos ne čia.',
  'console.activity.totals_title': 'Per laikotarpį',
  'console.activity.totals_duels': 'dvikovos',
  'console.activity.totals_votes': 'balsai',
  'console.activity.totals_reactions': 'reakcijos',
  'console.activity.totals_reports': 'pranešimai',
  'console.activity.days_title': 'Kiekvieną dieną',
  'console.activity.days_chart':
    'Dvikovos, balsai, reakcijos ir pranešimai per dieną (pranešimai brūkšniuoti); lentelėje tie patys skaičiai.',
  'console.activity.col_reports': 'Pranešimai',
  'console.activity.funnel_title': 'Nuo žinutės iki balso',
  'console.activity.funnel_intro':
    'Per laikotarpį pradėtos dvikovos, sekamos iki galo: išsiųsta žinutė, abu pirmojo rato atsakymai užbaigti, tada balsas.',
  'console.activity.funnel.prompts': 'Žinutė išsiųsta',
  'console.activity.funnel.answered': 'Abu atsakymai užbaigti',
  'console.activity.funnel.voted': 'Balsas atiduotas',
  'console.activity.col_step': 'Žingsnis',
  'console.activity.col_of_prompts': 'Žinučių dalis',
  'console.activity.languages_title': 'Kalbos',
  'console.activity.languages_note': 'Jau išanalizuoti laikotarpio pokalbiai ({screened}), kiekvienas pagal savo pagrindinę kalbą.',
  'console.activity.topics_title': 'Temos',
  'console.activity.topics_note': 'Išanalizuotas pokalbis skaičiuojamas prie kiekvienos savo temos.',
  'console.activity.topics_none': 'Be temos',
  'console.activity.modes_title': 'Režimai',
  'console.activity.models_title': 'Klaidos pagal modelį',
  'console.activity.models_note':
    'Per laikotarpį pradėtų ratų atsakymai. Klaidų dažnis = nepavykę atsakymai ÷ atsakymai. Atsakymas, sustabdytas dėl to, kad suklydo kitas modelis, nėra jo paties modelio klaida.',
  'console.activity.models_empty': 'Per laikotarpį atsakymų nebuvo.',
  'console.activity.col_sides': 'Atsakymai',
  'console.activity.col_complete': 'Užbaigti',
  'console.activity.col_failed': 'Nepavykę',
  'console.activity.col_cancelled': 'Sustabdyti',
  'console.activity.col_failure_rate': 'Klaidų dažnis',
};
