import { mod97 } from './mod97';
import type { Span } from './pii-kind';

/** IBAN length per country (SWIFT IBAN registry), French overseas territories included. */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BI: 27,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DJ: 27,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FK: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HN: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  LY: 25,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MN: 20,
  MR: 27,
  MT: 31,
  MU: 30,
  NI: 28,
  NL: 18,
  NO: 15,
  OM: 23,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  RU: 33,
  SA: 24,
  SC: 31,
  SD: 18,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  SO: 23,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  YE: 30,
  BL: 27,
  GF: 27,
  GP: 27,
  MF: 27,
  MQ: 27,
  NC: 27,
  PF: 27,
  PM: 27,
  RE: 27,
  TF: 27,
  WF: 27,
  YT: 27,
};

const START = /(?<![\p{L}\p{N}])[A-Za-z]{2}\d{2}/gu;
const ALNUM = /[A-Za-z0-9]/;
const SEPARATOR = /[ \u00A0-]/;

/** Whether a compact IBAN (no spaces) has its country's length and passes the mod-97 check. */
export function isValidIban(compact: string): boolean {
  const iban = compact.toUpperCase();
  if (IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  const digits = rearranged.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  return mod97(digits) === 1;
}

/** Reads exactly `length` letters and digits from `from`, allowing single spaces or dashes between them. */
function readCompact(text: string, from: number, length: number): { compact: string; end: number } | null {
  let compact = '';
  let index = from;
  while (compact.length < length && index < text.length) {
    const char = text[index] as string;
    if (ALNUM.test(char)) compact += char;
    else if (!(SEPARATOR.test(char) && compact.length > 0 && ALNUM.test(text[index + 1] ?? ''))) return null;
    index += 1;
  }
  if (compact.length < length || ALNUM.test(text[index] ?? '')) return null;
  return { compact, end: index };
}

/**
 * IBANs, compact or printed in groups: the country's registered length and the ISO 13616 mod-97
 * check must both hold, so order numbers and look-alikes with a wrong check digit are ignored.
 */
export function findIbans(text: string): Span[] {
  const spans: Span[] = [];
  for (const match of text.matchAll(START)) {
    const length = IBAN_LENGTHS[match[0].slice(0, 2).toUpperCase()];
    if (length === undefined) continue;
    const read = readCompact(text, match.index, length);
    if (read && isValidIban(read.compact)) spans.push({ start: match.index, end: read.end });
  }
  return spans;
}
