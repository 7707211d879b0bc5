import type { Span } from './pii-kind';

/**
 * Numbers of France's public registers of health professionals and establishments, which clinical
 * notes print beside their label: an RPPS number (11 digits, a professional listed in the public
 * Annuaire Santé), an ADELI number (9 digits) and a FINESS number (9 characters, an establishment).
 * They name no patient, and their digits would otherwise pass for a phone number (`FINESS 069…`) or
 * a PESEL. Only the register's own shape right after its label is exempt: `RPPS 06 12 34 56 78` is
 * still a phone number.
 */
const REGISTER_NUMBER =
  /\b(?:RPPS(?:\s+(?:du|de la|of the)\s+\p{L}+)?\s*(?:n°\s*)?:?\s*(1\d{10})|(?:FINESS|ADELI)\s*(?:n°\s*)?:?\s*(\d{2}[0-9AB]\d{6}))(?!\p{N})/giu;

/** Where the text prints a public register's number after its label. */
export function findPublicRegisterNumbers(text: string): Span[] {
  const spans: Span[] = [];
  if (!/rpps|finess|adeli/i.test(text)) return spans;
  for (const match of text.matchAll(REGISTER_NUMBER)) {
    const number = match[1] ?? match[2] ?? '';
    const end = match.index + match[0].length;
    spans.push({ start: end - number.length, end });
  }
  return spans;
}
