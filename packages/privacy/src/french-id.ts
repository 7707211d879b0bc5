import type { Writing } from './national-id-kind';
import { passesLuhn } from './payment-card';

/** La Poste's SIREN: its establishments' SIRET numbers pass a sum-of-digits rule instead of Luhn. */
const LA_POSTE = '356000000';

/** A SIREN (9 digits) or SIRET (14: SIREN and establishment number): Luhn, or La Poste's digit sum. */
export function isValidSirenOrSiret(compact: string): boolean {
  if (!/^(?:\d{9}|\d{14})$/.test(compact)) return false;
  if (compact.length === 14 && compact.startsWith(LA_POSTE)) return [...compact].reduce((sum, digit) => sum + Number(digit), 0) % 5 === 0;
  return passesLuhn(compact);
}

/**
 * A French passport number: two digits, two letters, five digits (`12AB34567`). No checksum; the
 * shape is rare enough in prose.
 */
export const isFrenchPassportNumber = (compact: string) => /^\d{2}[A-Z]{2}\d{5}$/.test(compact.toUpperCase());

/**
 * A French identity card number: 12 digits on cards issued before 2021 (year, month, department,
 * office, serial), 9 letters and digits since; both only next to a word that names the card.
 */
export const isFrenchIdCardNumber = (compact: string) =>
  /^\d{2}(?:0[1-9]|1[0-2])\d{8}$/.test(compact) ||
  (/^[A-Z0-9]{9}$/.test(compact.toUpperCase()) && /\d/.test(compact) && /[A-Z]/i.test(compact));

/** Words that announce a company number: SIREN, SIRET, RCS, n° TVA. */
const SIREN_CONTEXT = /\bsir[eè][nt]\b|\bRCS\b|\bn°\s*TVA\b|\bnum[ée]ro\s+d'entreprise/iu;
/** Words that announce an identity card: carte d'identité, CNI, pièce d'identité, ID card. */
const ID_CARD_CONTEXT = /carte\s+(?:nationale\s+)?d['’]identit[ée]|\bCNI\b|pi[èe]ce\s+d['’]identit[ée]|\bID\s*card\b|identity\s+card/iu;
const SPACE = String.raw`[ \u00A0]`;

/**
 * French identifiers besides the NIR. A SIRET (14 digits, compact or 3-3-3-5) counts alone: a
 * sole trader's number names a person; a SIREN's 9 digits, which one number in ten passes, only
 * next to « SIREN », « RCS » or « n° TVA ». Passport numbers alone; identity card numbers only next
 * to a word that names the card.
 */
export const FRENCH_ID_WRITINGS: readonly Writing[] = [
  { kind: 'fr_siren', pattern: String.raw`\d{3}${SPACE}?\d{3}${SPACE}?\d{3}${SPACE}?\d{5}`, validate: isValidSirenOrSiret },
  { kind: 'fr_siren', pattern: String.raw`\d{3}([ .\u00A0]?)\d{3}\1\d{3}`, validate: isValidSirenOrSiret, context: SIREN_CONTEXT },
  { kind: 'fr_passport', pattern: String.raw`\d{2}${SPACE}?[A-Za-z]{2}${SPACE}?\d{5}`, validate: isFrenchPassportNumber },
  {
    kind: 'fr_id_card',
    pattern: String.raw`\d{4}${SPACE}?\d{5}${SPACE}?\d{3}|[A-Za-z0-9]{9}`,
    validate: isFrenchIdCardNumber,
    context: ID_CARD_CONTEXT,
  },
];
