import type { fr } from './fr';

/** Messages of the console-content area in this language: the keys of the French file, type-checked. */
export const da: Record<keyof typeof fr, string> = {
  'console.content.nav': 'Indhold',
  'console.content.title': 'Arenaens indhold',
  'console.content.intro':
    'Stemmemærkerne, forslagene til spørgsmål og sidens sider, ét sprog ad gangen. Så længe intet er gemt for et sprog, viser arenaen sine indbyggede tekster; en gemt liste erstatter hele den indbyggede liste for sit sprog.',
  'console.content.language': 'Sprog der redigeres',
  'console.content.sections': 'Sidens dele',
  'console.content.failed_load': 'Indholdet kunne ikke læses. Prøv igen om et øjeblik.',
  'console.content.failed_save': 'Gemningen mislykkedes. Prøv igen om et øjeblik.',
  'console.content.save': 'Gem',
  'console.content.reset': 'Tilbage til den indbyggede tekst',
  'console.content.saved': 'Gemt: de besøgende ser det inden for få sekunder.',
  'console.content.reset_done': 'Tilbage til den indbyggede tekst.',
  'console.content.state.stored': 'Liste gemt i konsollen: den erstatter den indbyggede liste for dette sprog.',
  'console.content.state.built_in': 'Indbygget liste: intet er gemt for dette sprog.',
  'console.content.tags.title': 'Stemmemærker',
  'console.content.tags.intro':
    'Sæt kryds ved de mærker, der tilbydes dem, der stemmer, og skriv deres ordlyd (højst 40 tegn). Selve mærkerne forbliver compar:IA’s: datasættene tæller dem.',
  'console.content.tags.caption': 'Mærker der tilbydes på dette sprog',
  'console.content.tags.column.tag': 'Mærke',
  'console.content.tags.column.offered': 'Tilbydes',
  'console.content.tags.column.label': 'Vist ordlyd',
  'console.content.tags.kind.positive': 'positivt',
  'console.content.tags.kind.negative': 'negativt',
  'console.content.tags.offer': 'Tilbyd »{tag}«',
  'console.content.tags.label_of': 'Vist ordlyd for »{tag}«',
  'console.content.tags.none': 'Sæt kryds ved mindst ét mærke.',
  'console.content.suggestions.title': 'Forslag til spørgsmål',
  'console.content.suggestions.intro':
    'Idéerne under indtastningsfeltet, ordnet efter kategori: højst {max}, hver på højst {chars} tegn på én linje.',
  'console.content.suggestions.category': 'Kategori for forslag {n}',
  'console.content.suggestions.text': 'Forslag {n}',
  'console.content.suggestions.remove': 'Fjern forslag {n}',
  'console.content.suggestions.remove_short': 'Fjern',
  'console.content.suggestions.add': 'Tilføj et forslag',
  'console.content.pages.title': 'Sidens sider',
  'console.content.pages.intro':
    'Metode, brugsvilkår, privatliv, juridisk information og tilgængelighed, skrevet i Markdown. Forhåndsvisningen viser dem, som de besøgende vil se dem.',
  'console.content.pages.read_only':
    'Mappen AGORA_PAGES_DIR er sat op: dens filer går forud for konsollen, som kun viser siderne til læsning. Rediger filerne i den mappe.',
  'console.content.pages.page': 'Side der redigeres',
  'console.content.pages.source.stored': 'Tekst gemt i konsollen {date} af {who}.',
  'console.content.pages.source.bundled': 'Indbygget tekst fra Agora: intet er gemt for dette sprog.',
  'console.content.pages.source.folder': 'Tekst fra mappen AGORA_PAGES_DIR.',
  'console.content.pages.source.none': 'Ingen tekst på dette sprog. Når den er gemt, vises siden i sidens sidefod.',
  'console.content.pages.editor': 'Teksten på siden »{page}« (Markdown)',
  'console.content.pages.hint':
    'Overskrifter med #, lister med -, links med [tekst](adresse). HTML vises, som det er, og fortolkes aldrig.',
  'console.content.pages.preview': 'Forhåndsvisning',
};
