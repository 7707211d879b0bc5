import { getCountrySpecifications, isValidIBAN } from 'ibantools';
import { mod97 } from './mod97';
import type { Span } from './pii-kind';

/** IBAN length per country, from ibantools' registry (kept up to date by its maintainers; Norway: 15, Russia: 33). */
const IBAN_LENGTHS: ReadonlyMap<string, number> = new Map(
  Object.entries(getCountrySpecifications()).flatMap(([country, spec]) => (spec.chars ? [[country, spec.chars] as const] : [])),
);

/** A country code and two check digits, with at most one separator between them (`FR 76 3000 …`). */
const START = /(?<![\p{L}\p{N}])[A-Za-z]{2}[ \u00A0.-]?\d{2}/gu;
const ALNUM = /[A-Za-z0-9]/;
const SEPARATOR = /[ \u00A0.-]/;

/**
 * Whether a compact IBAN (no spaces) is one: ibantools' full validation (registry length, BBAN
 * format, ISO 13616 check digits, national checks), or else its registry length and the mod-97
 * check alone. The second covers an account number whose letters or bank code do not fit its
 * country's BBAN format (a typo, an unusual bank): still someone's account, and the screening errs
 * toward exclusion.
 */
export function isValidIban(compact: string): boolean {
  const iban = compact.toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  if (isValidIBAN(iban)) return true;
  if (IBAN_LENGTHS.get(iban.slice(0, 2)) !== iban.length) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  return mod97(rearranged.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55))) === 1;
}

/** Reads exactly `length` letters and digits from `from`, allowing one or two separators (space, dot, dash) between them. */
function readCompact(text: string, from: number, length: number): { compact: string; end: number } | null {
  let compact = '';
  let index = from;
  let separators = 0;
  while (compact.length < length && index < text.length) {
    const char = text[index] as string;
    if (ALNUM.test(char)) {
      compact += char;
      separators = 0;
    } else if (SEPARATOR.test(char) && compact.length > 0 && separators < 2) separators += 1;
    else return null;
    index += 1;
  }
  if (compact.length < length || ALNUM.test(text[index] ?? '')) return null;
  return { compact, end: index };
}

/**
 * IBANs of every country, compact or printed in any grouping (a space after the country code, groups
 * of 4, 3 or irregular, dots or dashes): the country's registered length and the mod-97 check must
 * both hold, so order numbers and look-alikes with a wrong check digit are ignored.
 */
export function findIbans(text: string): Span[] {
  const spans: Span[] = [];
  for (const match of text.matchAll(START)) {
    const length = IBAN_LENGTHS.get(match[0].slice(0, 2).toUpperCase());
    if (length === undefined) continue;
    const read = readCompact(text, match.index, length);
    if (read && isValidIban(read.compact)) spans.push({ start: match.index, end: read.end });
  }
  return spans;
}
