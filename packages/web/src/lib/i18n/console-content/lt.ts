import type { fr } from './fr';

/** Messages of the console-content area in this language: the keys of the French file, type-checked. */
export const lt: Record<keyof typeof fr, string> = {
  'console.content.nav': 'Turinys',
  'console.content.title': 'Arenos turinys',
  'console.content.intro':
    'Balsavimo žymos, klausimų pasiūlymai ir svetainės puslapiai – po vieną kalbą. Kol kalbai nieko neišsaugota, arena rodo savo įtaisytuosius tekstus; išsaugotas sąrašas pakeičia visą tos kalbos įtaisytąjį sąrašą.',
  'console.content.language': 'Redaguojama kalba',
  'console.content.sections': 'Puslapio dalys',
  'console.content.failed_load': 'Turinio nepavyko nuskaityti. Bandykite dar kartą po akimirkos.',
  'console.content.failed_save': 'Išsaugoti nepavyko. Bandykite dar kartą po akimirkos.',
  'console.content.save': 'Išsaugoti',
  'console.content.reset': 'Grįžti prie įtaisytojo teksto',
  'console.content.saved': 'Išsaugota: lankytojai tai pamatys per kelias sekundes.',
  'console.content.reset_done': 'Grąžintas įtaisytasis tekstas.',
  'console.content.state.stored': 'Sąrašas išsaugotas konsolėje: jis pakeičia šios kalbos įtaisytąjį sąrašą.',
  'console.content.state.built_in': 'Įtaisytasis sąrašas: šiai kalbai nieko neišsaugota.',
  'console.content.tags.title': 'Balsavimo žymos',
  'console.content.tags.intro':
    'Pažymėkite žymas, kurios siūlomos balsuojantiesiems, ir parašykite jų formuluotę (ne daugiau kaip 40 simbolių). Pačios žymos lieka compar:IA: duomenų rinkiniai jas skaičiuoja.',
  'console.content.tags.caption': 'Šia kalba siūlomos žymos',
  'console.content.tags.column.tag': 'Žyma',
  'console.content.tags.column.offered': 'Siūloma',
  'console.content.tags.column.label': 'Rodoma formuluotė',
  'console.content.tags.kind.positive': 'teigiama',
  'console.content.tags.kind.negative': 'neigiama',
  'console.content.tags.offer': 'Siūlyti „{tag}“',
  'console.content.tags.label_of': 'Rodoma žymos „{tag}“ formuluotė',
  'console.content.tags.none': 'Pažymėkite bent vieną žymą.',
  'console.content.suggestions.title': 'Klausimų pasiūlymai',
  'console.content.suggestions.intro':
    'Idėjos po įvesties laukeliu, suskirstytos pagal kategorijas: ne daugiau kaip {max}, kiekviena ne ilgesnė nei {chars} simbolių vienoje eilutėje.',
  'console.content.suggestions.category': '{n}-ojo pasiūlymo kategorija',
  'console.content.suggestions.text': 'Pasiūlymas {n}',
  'console.content.suggestions.remove': 'Pašalinti {n}-ąjį pasiūlymą',
  'console.content.suggestions.remove_short': 'Pašalinti',
  'console.content.suggestions.add': 'Pridėti pasiūlymą',
  'console.content.pages.title': 'Svetainės puslapiai',
  'console.content.pages.intro':
    'Metodika, naudojimo sąlygos, privatumas, teisinė informacija ir prieinamumas, parašyti Markdown formatu. Peržiūra rodo juos taip, kaip pamatys lankytojai.',
  'console.content.pages.read_only':
    'Nustatytas aplankas AGORA_PAGES_DIR: jo failai turi pirmenybę prieš konsolę, kuri puslapius rodo tik skaityti. Redaguokite to aplanko failus.',
  'console.content.pages.page': 'Redaguojamas puslapis',
  'console.content.pages.source.stored': 'Tekstą konsolėje {date} išsaugojo {who}.',
  'console.content.pages.source.bundled': 'Įtaisytasis Agora tekstas: šiai kalbai nieko neišsaugota.',
  'console.content.pages.source.folder': 'Tekstas iš aplanko AGORA_PAGES_DIR.',
  'console.content.pages.source.none': 'Šia kalba teksto nėra. Jį išsaugojus, puslapis atsiras svetainės poraštėje.',
  'console.content.pages.editor': 'Puslapio „{page}“ tekstas (Markdown)',
  'console.content.pages.hint':
    'Antraštės su #, sąrašai su -, nuorodos su [tekstas](adresas). HTML rodomas toks, koks yra, ir niekada neinterpretuojamas.',
  'console.content.pages.preview': 'Peržiūra',
};
