import type { fr } from './fr';

/** Messages of the site area in this language: the keys of the French file, type-checked. */
export const sv: Record<keyof typeof fr, string> = {
  'site.setup.keys': 'Ange minst en av dessa variabler: {keys}.',
  'site.setup.no_keys': 'Lägg till modeller i katalogen.',
  'site.setup.other_ways':
    'Andra möjligheter: kör agora models pull för att köra små öppna modeller på den här datorn (ingen nyckel behövs), eller låt AGORA_MODELS peka på en annan katalog, och starta sedan om. Kommandot npm run demo kör arenan offline mot en inbyggd låtsasleverantör.',
  'site.license.proprietary': 'Proprietär',
  'site.license.unknown': 'Okänd licens',
  'site.license_kind.permissive': 'fri licens',
  'site.license_kind.conditions': 'öppen licens med villkor',
  'site.license_kind.proprietary': 'stängd modell',
  'site.license_kind.unknown': 'okänd licens',
  'site.contact.title': 'Kontakta operatören',
  'site.contact.body': 'Frågor eller begäranden om dina uppgifter:',
  'site.contact.none': 'Den här arenan är privat: fråga personen som bjöd in dig.',
  'site.page_missing': 'Operatören av den här arenan har ännu inte skrivit den här sidan.',
};
