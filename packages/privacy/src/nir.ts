import { mod97 } from './mod97';
import type { Span } from './pii-kind';

/** Between two characters of a NIR: nothing, or up to two spaces, dots, dashes, slashes, bars or underscores. */
const GAP = String.raw`[ .\u00A0/|_-]{0,2}`;
/**
 * 13 characters (the key left out) or 15, in any spacing; glued to letters too (`NIR185…`,
 * `sécu:185…`), never inside a longer run of digits or digit groups.
 */
const CANDIDATE = new RegExp(
  String.raw`(?<!\p{N}|\p{N}[ .\u00A0/|_-])[1-478](?:${GAP}[0-9ABab]){12}(?:${GAP}\d{2})?(?!\p{N}|[ .\u00A0/|_-]\p{N})`,
  'gu',
);
const STRUCTURE = /^([1-478])(\d{2})(\d{2})(\d{2}|2[AB])(\d{3})(\d{3})(\d{2})?$/;
/** Words that announce a social-security number, for provisional numbers (first digit 3, 4, 7 or 8). */
const CONTEXT = /(?:s[ée]curit[ée] sociale|s[ée]cu\b|\bNIR\b|\bINSEE\b|\bn(?:um[ée]ro|°)\s*(?:de\s+)?SS\b)[^\n]{0,40}$/iu;

/** Months 01–12, or 20 and above: the conventional months used when the month of birth is unknown. */
const plausibleMonth = (month: number) => (month >= 1 && month <= 12) || month >= 20;

/** The key: 97 − (number mod 97), with Corsica's 2A and 2B counted as 19 and 18. */
export function nirKey(first13: string): number {
  return 97 - mod97(first13.toUpperCase().replace('2A', '19').replace('2B', '18'));
}

/**
 * Whether `compact` (13 or 15 characters, no separators) has the structure of a NIR: sex digit,
 * year, a plausible month, a department (01–99 but 00, 2A/2B for Corsica, 97x overseas with its
 * 2-digit commune), a commune and an order number other than 000. The key is not checked.
 */
export function hasNirStructure(compact: string): boolean {
  const parts = STRUCTURE.exec(compact.toUpperCase());
  if (!parts) return false;
  const [, , , month, department, commune, order] = parts;
  return plausibleMonth(Number(month)) && department !== '00' && commune !== '000' && order !== '000';
}

/** Whether `compact` has the structure of a NIR and, when it has its key, the key matches. */
export function isValidNir(compact: string): boolean {
  if (!hasNirStructure(compact)) return false;
  const key = compact.length === 15 ? compact.slice(13) : undefined;
  return key === undefined || Number(key) === nirKey(compact.slice(0, 13));
}

/** Where a NIR's fields end: sex, year, month, department, commune, order (then the key). */
const FIELD_ENDS = new Set([1, 3, 5, 7, 10, 13]);

/**
 * Whether every separator in `written` falls between two fields (`1 85 05 78 006 084`, `185 05 78…`):
 * a number whose key is missing or wrong counts in any spacing of its fields, not cut anywhere, so
 * that an order number `2024-118-45-6789` is not read as one.
 */
function cutAtFields(written: string): boolean {
  let characters = 0;
  for (const char of written) {
    if (/[ .\u00A0/|_-]/.test(char)) {
      if (!FIELD_ENDS.has(characters)) return false;
    } else characters++;
  }
  return true;
}

/** A run of hexadecimal digits (a hash, an identifier) the candidate is glued inside: not a NIR. */
function insideHexRun(text: string, start: number, end: number): boolean {
  let from = start;
  let to = end;
  while (from > 0 && /[\p{L}\p{N}]/u.test(text[from - 1]!)) from--;
  while (to < text.length && /[\p{L}\p{N}]/u.test(text[to]!)) to++;
  return (from < start || to > end) && to - from >= 16 && /^[0-9a-f]+$/i.test(text.slice(from, to));
}

/**
 * French social-security numbers (NIR) by their structure, 13 digits or 15 with the key, in any
 * spacing, **whether or not the key checks**: screening is recall-first, and a mistyped or invented
 * number has the shape of a real one. No context word is needed for a number starting with 1 or 2
 * (a person born in France or abroad); provisional numbers (first digit 3, 4, 7 or 8) count only
 * after words such as « sécurité sociale » or « NIR », as random 15-digit numbers such as card
 * numbers would otherwise match about once in ten.
 */
export function findNirs(text: string): Span[] {
  const spans: Span[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    const compact = match[0].replace(/[ .\u00A0/|_-]/g, '');
    if (!hasNirStructure(compact) || !((isValidNir(compact) && compact.length === 15) || cutAtFields(match[0]))) continue;
    const end = match.index + match[0].length;
    if (insideHexRun(text, match.index, end)) continue;
    if (!/^[12]/.test(compact) && !CONTEXT.test(text.slice(Math.max(0, match.index - 70), match.index))) continue;
    spans.push({ start: match.index, end });
  }
  return spans;
}
