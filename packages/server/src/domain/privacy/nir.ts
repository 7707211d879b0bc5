import { mod97 } from './mod97';
import type { Span } from './pii-kind';

/** 15 characters (13 + key) or 13 without the key, with optional single separators. */
const CANDIDATE = /(?<![\p{L}\p{N}])[1-478](?:[ .\u00A0-]?[0-9ABab]){12}(?:[ .\u00A0-]?\d{2})?(?![\p{L}\p{N}])/gu;
const STRUCTURE = /^([1-478])(\d{2})(\d{2})(\d{2}|2[AB])(\d{3})(\d{3})(\d{2})?$/;
/** Words that announce a social-security number, for the 13-digit form written without its key. */
const CONTEXT = /(?:s[ée]curit[ée] sociale|s[ée]cu\b|\bNIR\b|\bINSEE\b|\bn(?:um[ée]ro|°)\s*(?:de\s+)?SS\b)[^\n]{0,40}$/iu;

/** Months 01–12, or the conventional 20–42 and 50–99 used when the month of birth is unknown. */
function plausibleMonth(month: number): boolean {
  return (month >= 1 && month <= 12) || (month >= 20 && month <= 42) || month >= 50;
}

/** The key: 97 − (number mod 97), with Corsica's 2A and 2B counted as 19 and 18. */
export function nirKey(first13: string): number {
  return 97 - mod97(first13.toUpperCase().replace('2A', '19').replace('2B', '18'));
}

/** Whether `compact` (13 or 15 characters, no separators) has the shape of a NIR, and its key matches. */
export function isValidNir(compact: string): boolean {
  const parts = STRUCTURE.exec(compact.toUpperCase());
  if (!parts) return false;
  const [, , , month, department, commune, order, key] = parts;
  if (!plausibleMonth(Number(month)) || department === '00' || commune === '000' || order === '000') return false;
  return key === undefined || Number(key) === nirKey(compact.slice(0, 13));
}

/**
 * French social-security numbers (NIR): sex 1/2, year, a plausible month, department (2A/2B for
 * Corsica), commune, order and the two-digit key 97 − (number mod 97). Two rarer forms count only
 * right after words such as « sécurité sociale » or « NIR »: the 13 digits written without their
 * key, and provisional numbers (first digit 3, 4, 7 or 8), which random 15-digit numbers such as
 * card numbers would otherwise match about once in a hundred.
 */
export function findNirs(text: string): Span[] {
  const spans: Span[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    const compact = match[0].replace(/[ .\u00A0-]/g, '');
    if (!isValidNir(compact)) continue;
    const rare = compact.length === 13 || !/^[12]/.test(compact);
    if (rare && !CONTEXT.test(text.slice(Math.max(0, match.index - 70), match.index))) continue;
    spans.push({ start: match.index, end: match.index + match[0].length });
  }
  return spans;
}
