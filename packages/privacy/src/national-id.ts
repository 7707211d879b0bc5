import { FRENCH_ID_WRITINGS } from './french-id';
import { mod97 } from './mod97';
import type { NationalIdKind, Writing } from './national-id-kind';
import { passesLuhn } from './payment-card';
import type { Span } from './pii-kind';

/** A national identifier found in a text, with the format it was validated as. */
export interface NationalIdMatch extends Span {
  kind: NationalIdKind;
}

// ---- dates and digits -------------------------------------------------------------------------

const digitsOf = (compact: string) => [...compact].map((char) => char.charCodeAt(0) - 48);

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Whether day/month/year is a day of the Gregorian calendar. */
function isDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const length = month === 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return day <= length;
}

/**
 * A two-digit year whose century the number does not say: read in 2000–2099, whose leap years are
 * exactly those divisible by 4, so 29 February passes whenever some century makes it a real day
 * (only 1900 would be refused, and nobody can tell 1900 from 2000 here).
 */
const someCentury = (twoDigits: number) => 2000 + twoDigits;

// ---- validators -------------------------------------------------------------------------------

/**
 * Swedish personnummer or samordningsnummer, compact: 10 digits (YYMMDDNNNC) or 12 with the
 * century (YYYYMMDDNNNC, 18xx–20xx). Coordination numbers add 60 to the day. The check digit is
 * Luhn over the 10 digits, century left out.
 */
export function isValidPersonnummer(compact: string): boolean {
  const parts = /^(18|19|20)?(\d{2})(\d{2})(\d{2})\d{4}$/.exec(compact);
  if (!parts) return false;
  const [, century, year, month, day] = parts;
  const fullYear = century === undefined ? someCentury(Number(year)) : Number(`${century}${year}`);
  const dayOfMonth = Number(day) > 60 ? Number(day) - 60 : Number(day);
  return isDate(fullYear, Number(month), dayOfMonth) && passesLuhn(compact.slice(-10));
}

/**
 * The century of a Danish CPR number, from its seventh digit (CPR-kontoret's table): 0–3 are the
 * 1900s; 4 and 9 the 2000s up to year 36, else the 1900s; 5–8 the 2000s up to year 57, else the 1800s.
 */
function cprCentury(year: number, seventh: number): number {
  if (seventh <= 3) return 1900;
  if (seventh === 4 || seventh === 9) return year <= 36 ? 2000 : 1900;
  return year <= 57 ? 2000 : 1800;
}

/**
 * Danish CPR number, compact (DDMMYYSSSS): a real date, its century read from the seventh digit.
 * The modulus-11 check is not required: numbers issued since 2007 need not pass it.
 */
export function isValidCpr(compact: string): boolean {
  const parts = /^(\d{2})(\d{2})(\d{2})(\d)\d{3}$/.exec(compact);
  if (!parts) return false;
  const [, day, month, year, seventh] = parts;
  return isDate(cprCentury(Number(year), Number(seventh)) + Number(year), Number(month), Number(day));
}

/**
 * The Lithuanian check digit: weights 1–9,1 mod 11; if that gives 10, weights 3–9,1,2,3; if that
 * gives 10 again, 0.
 */
function asmensKodasCheck(first10: readonly number[]): number {
  for (const shift of [0, 2]) {
    const remainder = first10.reduce((sum, digit, index) => sum + digit * (((index + shift) % 9) + 1), 0) % 11;
    if (remainder !== 10) return remainder;
  }
  return 0;
}

/**
 * Lithuanian asmens kodas (GYYMMDDNNNC): G 1–6 gives sex and century (1/2 the 1800s, 3/4 the 1900s,
 * 5/6 the 2000s), a real date, then the two-pass mod-11 check. G = 9 (date unknown) is left out.
 */
export function isValidAsmensKodas(compact: string): boolean {
  if (!/^[1-6]\d{10}$/.test(compact)) return false;
  const digits = digitsOf(compact);
  const century = 1800 + 100 * Math.floor(((digits[0] ?? 1) - 1) / 2);
  const year = century + Number(compact.slice(1, 3));
  if (!isDate(year, Number(compact.slice(3, 5)), Number(compact.slice(5, 7)))) return false;
  return asmensKodasCheck(digits.slice(0, 10)) === digits[10];
}

/** ISO 7064 MOD 11,10 check digit, as the Bundeszentralamt für Steuern computes it. */
function mod1110(digits: readonly number[]): number {
  let product = 10;
  for (const digit of digits) {
    const sum = (digit + product) % 10 || 10;
    product = (sum * 2) % 11;
  }
  return (11 - product) % 10;
}

/**
 * German Steuerliche Identifikationsnummer: 11 digits, not starting with 0. In the first ten,
 * exactly one digit is repeated, twice or three times (three since 2016), never three in a row, and
 * the eleventh is the ISO 7064 MOD 11,10 check digit.
 */
export function isValidSteuerId(compact: string): boolean {
  if (!/^[1-9]\d{10}$/.test(compact)) return false;
  const first10 = compact.slice(0, 10);
  if (/(\d)\1\1/.test(first10)) return false;
  const counts = new Map<string, number>();
  for (const digit of first10) counts.set(digit, (counts.get(digit) ?? 0) + 1);
  const repeated = [...counts.values()].filter((count) => count > 1);
  if (repeated.length !== 1 || (repeated[0] ?? 0) > 3) return false;
  return mod1110(digitsOf(first10)) === Number(compact[10]);
}

/** The letter of a DNI or NIE: the number mod 23 in this table (Ministerio del Interior). */
const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Spanish DNI, compact: 8 digits and the letter of the number mod 23. */
export function isValidDni(compact: string): boolean {
  const parts = /^(\d{8})([A-Z])$/.exec(compact.toUpperCase());
  return parts !== null && DNI_LETTERS[Number(parts[1]) % 23] === parts[2];
}

/** Spanish NIE, compact: X, Y or Z (read as 0, 1, 2), 7 digits and the DNI letter of that number. */
export function isValidNie(compact: string): boolean {
  const parts = /^([XYZ])(\d{7})([A-Z])$/.exec(compact.toUpperCase());
  if (!parts) return false;
  const [, prefix = 'X', number, letter] = parts;
  return DNI_LETTERS[Number(`${'XYZ'.indexOf(prefix)}${number}`) % 23] === letter;
}

/** Letters that replace the digits 0–9 of a codice fiscale shared by two people (omocodia). */
const OMOCODIA = 'LMNPQRSTUV';
/** Month letters, January to December. */
const CF_MONTHS = 'ABCDEHLMPRST';
/** Value of A–Z (digits count as A–J) at the odd positions 1, 3, …, 15; even positions count 0–25. */
const CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
const CF_SHAPE = /^[A-Z]{6}[\dLMNPQRSTUV]{2}[A-Z][\dLMNPQRSTUV]{2}[A-Z][\dLMNPQRSTUV]{3}[A-Z]$/;

/**
 * Italian codice fiscale of a person: 6 letters of the names, year, month letter, day (+40 for
 * women), birthplace code, and the check letter from the odd/even tables mod 26. The digits may be
 * replaced by the omocodia letters L–V.
 */
export function isValidCodiceFiscale(value: string): boolean {
  const code = value.toUpperCase();
  if (!CF_SHAPE.test(code)) return false;
  const digitAt = (index: number) => {
    const char = code[index] ?? '0';
    return /\d/.test(char) ? Number(char) : OMOCODIA.indexOf(char);
  };
  const day = digitAt(9) * 10 + digitAt(10);
  const month = CF_MONTHS.indexOf(code[8] ?? '') + 1;
  if (!isDate(someCentury(digitAt(6) * 10 + digitAt(7)), month, day > 40 ? day - 40 : day)) return false;
  let sum = 0;
  for (let index = 0; index < 15; index += 1) {
    const char = code.charCodeAt(index);
    const value = char <= 57 ? char - 48 : char - 65;
    sum += index % 2 === 0 ? (CF_ODD[value] ?? 0) : value;
  }
  return code[15] === String.fromCharCode(65 + (sum % 26));
}

/** Dutch BSN (or former sofinummer): 9 digits passing the 11-proof, weights 9 to 2 and −1. */
export function isValidBsn(compact: string): boolean {
  if (!/^\d{9}$/.test(compact) || /^0+$/.test(compact)) return false;
  const digits = digitsOf(compact);
  const sum = digits.slice(0, 8).reduce((total, digit, index) => total + digit * (9 - index), 0) - (digits[8] ?? 0);
  return sum % 11 === 0;
}

/**
 * Belgian national register number (YYMMDDSSSCC): serial 001–997, and the check 97 − (number mod
 * 97) over the 9 digits for births before 2000, over 2 followed by the 9 digits from 2000 on; the
 * century the check picks must make a real date. BIS numbers (month + 20 or + 40) count too.
 */
export function isValidBelgianNationalNumber(compact: string): boolean {
  const parts = /^(\d{2})(\d{2})(\d{2})(\d{3})(\d{2})$/.exec(compact);
  if (!parts) return false;
  const [, year, encodedMonth, day, serial, check] = parts;
  if (Number(serial) < 1 || Number(serial) > 997) return false;
  const encoded = Number(encodedMonth);
  const month = encoded > 40 ? encoded - 40 : encoded > 20 ? encoded - 20 : encoded;
  const first9 = compact.slice(0, 9);
  const centuries = [
    ...(97 - mod97(first9) === Number(check) ? [1900] : []),
    ...(97 - mod97(`2${first9}`) === Number(check) ? [2000] : []),
  ];
  return centuries.some((century) => isDate(century + Number(year), month, Number(day)));
}

/**
 * Polish PESEL (YYMMDDZZZXQ): the month carries the century (+80 for the 1800s, +20 for the 2000s;
 * the 2100s and 2200s offsets, +40 and +60, are nobody's yet and left out so that German mobile
 * numbers 015x–017x… are not read as PESELs), a real date, and weights 1-3-7-9 mod 10.
 */
export function isValidPesel(compact: string): boolean {
  if (!/^\d{11}$/.test(compact)) return false;
  const digits = digitsOf(compact);
  const encodedMonth = Number(compact.slice(2, 4));
  const century = [1900, 2000, undefined, undefined, 1800][Math.floor(encodedMonth / 20)];
  if (century === undefined || !isDate(century + Number(compact.slice(0, 2)), encodedMonth % 20, Number(compact.slice(4, 6)))) return false;
  const weights = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];
  const sum = weights.reduce((total, weight, index) => total + weight * (digits[index] ?? 0), 0);
  return (10 - (sum % 10)) % 10 === digits[10];
}

// ---- finding them in text ---------------------------------------------------------------------

/**
 * Nothing glued on either side: no letter or digit, no `+` before (a phone number in international
 * form), and not one group of a longer run of grouped digits (`12 345 678 901 234`, `3,85010112345`).
 */
const LEFT = String.raw`(?<![\p{L}\p{N}_+]|\p{N}[ .,\u00A0/-])`;
const RIGHT = String.raw`(?![\p{L}\p{N}_]|[ .,\u00A0/-]\p{N})`;
const SPACE = String.raw`[ \u00A0]`;

/** Words that announce a Swedish personnummer or samordningsnummer (definite forms included). */
const SE_CONTEXT = /\bperson(?:num|nr\b)|\bpers\.?\s?nr\b|\bp-?nr\b|\bsamordningsn(?:um|r\b)/iu;
/** Words that announce a Danish CPR number: CPR, CPR-nr., cpr-nummer, personnummer(et). */
const DK_CONTEXT = /\bcpr|\bperson(?:num|nr\b)/iu;
/** Words that announce a Dutch BSN: BSN, burgerservicenummer, sofinummer, sofi-nr. */
const NL_CONTEXT = /\bbsn\b|\bburgerservicen|\bsofi-?n(?:um|r\b)|\bcitizen service number/iu;

/** Whether a context word stands on the same line within 60 characters before or 30 after. */
function inContext(text: string, start: number, end: number, words: RegExp): boolean {
  const before = text.slice(Math.max(0, start - 60), start);
  const after = text.slice(end, end + 30);
  return words.test(before.slice(before.lastIndexOf('\n') + 1)) || words.test(after.split('\n')[0] ?? '');
}

const WRITINGS: readonly Writing[] = [
  // YYMMDD-NNNC, '+' once the holder is 100; YYYYMMDD with or without the dash (or a space).
  { kind: 'se_personnummer', pattern: String.raw`\d{6}[-+]\d{4}`, validate: isValidPersonnummer },
  { kind: 'se_personnummer', pattern: String.raw`(?:18|19|20)\d{6}(?:-|${SPACE})?\d{4}`, validate: isValidPersonnummer },
  // Ten bare digits pass the date and Luhn about once in 140: only next to « personnummer ».
  { kind: 'se_personnummer', pattern: String.raw`\d{6}${SPACE}?\d{4}`, validate: isValidPersonnummer, context: SE_CONTEXT },
  // DDMMYY-SSSS; without the dash, with no check digit left, only next to « CPR ».
  { kind: 'dk_cpr', pattern: String.raw`\d{6}-\d{4}`, validate: isValidCpr },
  { kind: 'dk_cpr', pattern: String.raw`\d{6}${SPACE}?\d{4}`, validate: isValidCpr, context: DK_CONTEXT },
  { kind: 'lt_asmens_kodas', pattern: String.raw`[1-6]\d{10}`, validate: isValidAsmensKodas },
  // Compact, or 2-3-3-3 as the Bundeszentralamt prints it.
  { kind: 'de_steuer_id', pattern: String.raw`[1-9]\d${SPACE}?\d{3}${SPACE}?\d{3}${SPACE}?\d{3}`, validate: isValidSteuerId },
  // 12345678Z, 12345678-Z, 12.345.678-Z; a letter after a space only in capitals (« envié 12345678 a Juan »).
  { kind: 'es_dni', pattern: String.raw`(?:\d{8}|\d{2}\.\d{3}\.\d{3})(?:-?[A-Za-z]|${SPACE}[A-Z])`, validate: isValidDni },
  { kind: 'es_nie', pattern: String.raw`[XYZ](?:-|${SPACE})?\d{7}(?:-|${SPACE})?[A-Z]|[xyz]-?\d{7}-?[A-Za-z]`, validate: isValidNie },
  {
    kind: 'it_codice_fiscale',
    pattern: String.raw`[A-Za-z]{6}[\dLMNPQRSTUVlmnpqrstuv]{2}[A-Za-z][\dLMNPQRSTUVlmnpqrstuv]{2}[A-Za-z][\dLMNPQRSTUVlmnpqrstuv]{3}[A-Za-z]`,
    validate: isValidCodiceFiscale,
  },
  // One 9-digit number in 11 passes the 11-proof: only next to « BSN ». 123456782, 1234.56.782, 123 456 782.
  {
    kind: 'nl_bsn',
    pattern: String.raw`\d{9}|\d{4}\.\d{2}\.\d{3}|\d{3}([ .\u00A0])\d{3}\1\d{3}|\d{4}${SPACE}\d{2}${SPACE}\d{3}`,
    validate: isValidBsn,
    context: NL_CONTEXT,
  },
  // YY.MM.DD-SSS.CC as on the card, compact, or with spaces or dashes between the parts.
  {
    kind: 'be_national_number',
    pattern: String.raw`\d{2}[. \u00A0]?\d{2}[. \u00A0]?\d{2}[-. \u00A0]?\d{3}[-. \u00A0]?\d{2}`,
    validate: isValidBelgianNationalNumber,
  },
  { kind: 'pl_pesel', pattern: String.raw`\d{11}`, validate: isValidPesel },
];

/** ASCII digits in a text (what `\d` matches). */
function digitsIn(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) count++;
  }
  return count;
}

const COMPILED = [...WRITINGS, ...FRENCH_ID_WRITINGS].map((writing) => ({
  ...writing,
  regex: new RegExp(`${LEFT}(?:${writing.pattern})${RIGHT}`, 'gu'),
}));

/**
 * Every national identifier found, with its kind; a number valid in two formats (a Danish CPR that
 * is also a Swedish personnummer) is reported once for each.
 */
export function findNationalIdMatches(text: string): NationalIdMatch[] {
  const matches: NationalIdMatch[] = [];
  // Every writing but the codice fiscale (whose digits may all be letters) and the new French
  // identity card holds 7 digits or more: a text with fewer is searched for those two alone.
  const enoughDigits = digitsIn(text) >= 7;
  for (const { kind, regex, validate, context } of COMPILED) {
    if (!enoughDigits && kind !== 'it_codice_fiscale' && kind !== 'fr_id_card') continue;
    // A writing that needs a context word is not searched in a text without one (the same findings, sooner).
    if (context && !context.test(text)) continue;
    for (const match of text.matchAll(regex)) {
      const start = match.index;
      const end = start + match[0].length;
      if (!validate(match[0].replace(/[^\p{L}\p{N}]/gu, ''))) continue;
      if (context && !inContext(text, start, end, context)) continue;
      if (!matches.some((found) => found.kind === kind && found.start === start && found.end === end)) matches.push({ kind, start, end });
    }
  }
  return matches.sort((left, right) => left.start - right.start || left.end - right.end);
}

/**
 * National identifiers of European countries, each validated by its own rules: Swedish personnummer
 * and samordningsnummer (date, Luhn), Danish CPR (date and century), Lithuanian asmens kodas, German
 * Steuer-ID (digit pattern, ISO 7064 MOD 11,10), Spanish DNI and NIE (letter mod 23), Italian codice
 * fiscale (check letter, omocodia), Dutch BSN (11-proof), Belgian national register number (mod 97)
 * and Polish PESEL (date, 1-3-7-9). The forms with no check at all or a weak one (ten bare digits of
 * a CPR or personnummer, nine of a BSN) count only next to a word that names them. One span per
 * place in the text, whatever the number of formats it is valid in.
 */
export function findNationalIds(text: string): Span[] {
  const spans: Span[] = [];
  const widestFirst = findNationalIdMatches(text).sort((left, right) => left.start - right.start || right.end - left.end);
  for (const { start, end } of widestFirst) {
    if (!spans.some((span) => span.start <= start && end <= span.end)) spans.push({ start, end });
  }
  return spans;
}
