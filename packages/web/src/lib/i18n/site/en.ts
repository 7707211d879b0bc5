import type { fr } from './fr';

/** Messages of the site area in this language: the keys of the French file, type-checked. */
export const en: Record<keyof typeof fr, string> = {
  'site.setup.keys': 'Set one or more of these variables: {keys}.',
  'site.setup.no_keys': 'Add models to the catalogue.',
  'site.setup.other_ways':
    'Other ways: run agora models pull to run small open models on this machine (no key needed), or point AGORA_MODELS at another catalogue, then restart. The command npm run demo runs the arena offline, against a bundled fake provider.',
  'site.license.proprietary': 'Proprietary',
  'site.license.unknown': 'Unknown licence',
  'site.license_kind.permissive': 'permissive licence',
  'site.license_kind.conditions': 'open licence with conditions',
  'site.license_kind.proprietary': 'closed model',
  'site.license_kind.unknown': 'unknown licence',
  'site.contact.title': 'Contact the operator',
  'site.contact.body': 'For any question or request about your data:',
  'site.contact.none': 'This arena is private: ask the person who invited you to it.',
  'site.page_missing': 'The operator of this arena has not written this page yet.',
};
