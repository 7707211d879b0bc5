import type { fr } from './fr';

/** Messages of the console-content area in this language: the keys of the French file, type-checked. */
export const sv: Record<keyof typeof fr, string> = {
  'console.content.nav': 'Innehåll',
  'console.content.title': 'Arenans innehåll',
  'console.content.intro':
    'Röstningsetiketterna, förslagen på frågor och webbplatsens sidor, ett språk i taget. Så länge inget är sparat för ett språk visar arenan sina inbyggda texter; en sparad lista ersätter hela den inbyggda listan för sitt språk.',
  'console.content.language': 'Språk som redigeras',
  'console.content.sections': 'Sidans delar',
  'console.content.failed_load': 'Innehållet kunde inte läsas. Försök igen om en stund.',
  'console.content.failed_save': 'Det gick inte att spara. Försök igen om en stund.',
  'console.content.save': 'Spara',
  'console.content.reset': 'Tillbaka till den inbyggda texten',
  'console.content.saved': 'Sparat: besökarna ser det inom några sekunder.',
  'console.content.reset_done': 'Tillbaka till den inbyggda texten.',
  'console.content.state.stored': 'Lista sparad i konsolen: den ersätter den inbyggda listan för det här språket.',
  'console.content.state.built_in': 'Inbyggd lista: inget är sparat för det här språket.',
  'console.content.tags.title': 'Röstningsetiketter',
  'console.content.tags.intro':
    'Kryssa i de etiketter som erbjuds de röstande och skriv deras ordalydelse (högst 40 tecken). Själva etiketterna förblir compar:IA:s: dataseten räknar dem.',
  'console.content.tags.caption': 'Etiketter som erbjuds på det här språket',
  'console.content.tags.column.tag': 'Etikett',
  'console.content.tags.column.offered': 'Erbjuds',
  'console.content.tags.column.label': 'Visad ordalydelse',
  'console.content.tags.kind.positive': 'positiv',
  'console.content.tags.kind.negative': 'negativ',
  'console.content.tags.offer': 'Erbjud ”{tag}”',
  'console.content.tags.label_of': 'Visad ordalydelse för ”{tag}”',
  'console.content.tags.none': 'Kryssa i minst en etikett.',
  'console.content.suggestions.title': 'Förslag på frågor',
  'console.content.suggestions.intro':
    'Idéerna under inmatningsrutan, ordnade efter kategori: högst {max}, var och en på högst {chars} tecken på en rad.',
  'console.content.suggestions.category': 'Kategori för förslag {n}',
  'console.content.suggestions.text': 'Förslag {n}',
  'console.content.suggestions.remove': 'Ta bort förslag {n}',
  'console.content.suggestions.remove_short': 'Ta bort',
  'console.content.suggestions.add': 'Lägg till ett förslag',
  'console.content.pages.title': 'Webbplatsens sidor',
  'console.content.pages.intro':
    'Metod, användarvillkor, integritet, juridisk information och tillgänglighet, skrivna i Markdown. Förhandsvisningen visar dem som besökarna kommer att se dem.',
  'console.content.pages.read_only':
    'Mappen AGORA_PAGES_DIR är konfigurerad: dess filer går före konsolen, som bara visar sidorna för läsning. Redigera filerna i den mappen.',
  'console.content.pages.page': 'Sida som redigeras',
  'console.content.pages.source.stored': 'Text sparad i konsolen {date} av {who}.',
  'console.content.pages.source.bundled': 'Inbyggd text från Agora: inget är sparat för det här språket.',
  'console.content.pages.source.folder': 'Text från mappen AGORA_PAGES_DIR.',
  'console.content.pages.source.none': 'Ingen text på det här språket. När den har sparats visas sidan i webbplatsens sidfot.',
  'console.content.pages.editor': 'Texten på sidan ”{page}” (Markdown)',
  'console.content.pages.hint': 'Rubriker med #, listor med -, länkar med [text](adress). HTML visas som det är och tolkas aldrig.',
  'console.content.pages.preview': 'Förhandsvisning',
};
