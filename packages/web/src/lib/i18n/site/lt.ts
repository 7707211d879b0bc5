import type { fr } from './fr';

/** Messages of the site area in this language: the keys of the French file, type-checked. */
export const lt: Record<keyof typeof fr, string> = {
  'site.setup.keys': 'Nustatykite bent vieną iš šių kintamųjų: {keys}.',
  'site.setup.no_keys': 'Įtraukite modelių į katalogą.',
  'site.setup.other_ways':
    'Kitos galimybės: paleiskite agora models pull, kad šiame kompiuteryje veiktų nedideli atvirieji modeliai (rakto nereikia), arba nukreipkite AGORA_MODELS į kitą katalogą, tada paleiskite iš naujo. Komanda npm run demo paleidžia areną be interneto su įtaisytu netikru tiekėju.',
  'site.license.proprietary': 'Nuosavybinė',
  'site.license.unknown': 'Nežinoma licencija',
  'site.license_kind.permissive': 'laisvoji licencija',
  'site.license_kind.conditions': 'atviroji licencija su sąlygomis',
  'site.license_kind.proprietary': 'uždaras modelis',
  'site.license_kind.unknown': 'nežinoma licencija',
  'site.contact.title': 'Susisiekti su operatoriumi',
  'site.contact.body': 'Klausimai ar prašymai dėl jūsų duomenų:',
  'site.contact.none': 'Ši arena privati: kreipkitės į asmenį, kuris jus pakvietė.',
  'site.page_missing': 'Šios arenos operatorius dar neparašė šio puslapio.',
};
