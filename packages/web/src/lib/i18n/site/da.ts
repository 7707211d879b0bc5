import type { fr } from './fr';

/** Messages of the site area in this language: the keys of the French file, type-checked. */
export const da: Record<keyof typeof fr, string> = {
  'site.setup.keys': 'Sæt mindst én af disse variable: {keys}.',
  'site.setup.no_keys': 'Tilføj modeller til kataloget.',
  'site.setup.other_ways':
    'Andre muligheder: kør agora models pull for at køre små åbne modeller på denne maskine (ingen nøgle nødvendig), eller lad AGORA_MODELS pege på et andet katalog, og genstart derefter. Kommandoen npm run demo kører arenaen offline mod en indbygget falsk udbyder.',
  'site.license.proprietary': 'Proprietær',
  'site.license.unknown': 'Ukendt licens',
  'site.license_kind.permissive': 'fri licens',
  'site.license_kind.conditions': 'åben licens med betingelser',
  'site.license_kind.proprietary': 'lukket model',
  'site.license_kind.unknown': 'ukendt licens',
  'site.contact.title': 'Kontakt operatøren',
  'site.contact.body': 'Spørgsmål eller anmodninger om dine data:',
  'site.contact.none': 'Denne arena er privat: spørg den person, der inviterede dig.',
  'site.page_missing': 'Operatøren af denne arena har endnu ikke skrevet denne side.',
};
