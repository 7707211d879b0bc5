import type { Span } from './pii-kind';

/** Street types that name a street whatever follows them (abbreviations included). */
const STREET_TYPES = [
  'rue',
  'avenue',
  'av',
  'boulevard',
  'bd',
  'bld',
  'allée',
  'allee',
  'impasse',
  'imp',
  'chemin',
  'ch',
  'quai',
  'ruelle',
  'faubourg',
  'fg',
  'chaussée',
  'lotissement',
  'rond-point',
  'route',
  'rte',
  'esplanade',
  'promenade',
  'sentier',
  'résidence',
  'lieu-dit',
  'hameau',
  'venelle',
  'montée',
  'traverse',
];
/** Street types that are also common words (« 3 cours de maths », « 2 places libres »). */
const AMBIGUOUS_TYPES = ['place', 'pl', 'cours', 'square', 'passage', 'villa', 'cité', 'voie', 'mail', 'parvis', 'domaine', 'clos', 'port'];

/** `rue` → `(?:rue|Rue|RUE)`; an abbreviation may end with a dot. */
function typeAlternation(types: readonly string[]): string {
  const forms = types.flatMap((type) => [type, type[0]?.toUpperCase() + type.slice(1), type.toUpperCase()]);
  return `(?:${forms.map((form) => form.replace(/-/g, '[- ]')).join('|')})\\.?`;
}

const NUMBER = String.raw`(?<![\p{L}\p{N},.])\d{1,4}(?:\s?(?:bis|ter|quater|[A-Da-d])(?![\p{L}]))?,?\s+`;
const PARTICLE = String.raw`(?:(?:de la|de l['’]|du|des|de|d['’]|l['’]|la|le|les|aux|au|à la|à l['’]|sur|sous|et|en)\s*)`;
const CAPITAL_WORD = String.raw`(?:\p{Lu}[\p{L}'’.-]*|\d{1,2}(?:er)?\s+\p{Lu}[\p{L}]*(?:\s+\d{4})?)`;
const ANY_WORD = String.raw`\p{L}[\p{L}'’-]*`;
const MORE_WORDS = String.raw`(?:[\s-]+${PARTICLE}?${CAPITAL_WORD}){0,5}`;
// A town's words stay on the postcode's line: the next line's first word is not part of the town.
const POSTCODE = String.raw`(?:,?\s+(?:\d{5}|\d{2}\s\d{3})[ \t\u00A0]+\p{Lu}[\p{L}'’-]*(?:[ \t\u00A0-]+(?:${PARTICLE}?\p{Lu}[\p{L}'’-]*|sur|sous|en|lès|les)){0,4})?`;

const ADDRESS = new RegExp(
  `${NUMBER}(?:${typeAlternation(STREET_TYPES)}\\s+${PARTICLE}?${ANY_WORD}|${typeAlternation(AMBIGUOUS_TYPES)}\\s+${PARTICLE}?${CAPITAL_WORD})${MORE_WORDS}${POSTCODE}(?![\\p{L}\\p{N}])`,
  'gu',
);

/**
 * French postal addresses: a street number (with bis/ter), a street type (rue, avenue, bd, allée,
 * impasse, chemin, quai, place…) and a name, optionally followed by a postcode and a town. Types
 * that are also ordinary words (place, cours, passage…) need a capitalised name. A street or town
 * without a number (« la rue de Rivoli », « 75011 Paris ») is not an address of anyone.
 */
export function findPostalAddresses(text: string): Span[] {
  // An address starts with its number: a text without a digit is not searched.
  if (!/\d/.test(text)) return [];
  return [...text.matchAll(ADDRESS)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
}
