import { firstOfOverlapping } from './email';
import type { Span } from './pii-kind';

/**
 * Phone numbers as people write them, valid or not: the screening excludes a conversation with a
 * phone-shaped number whatever the numbering plan says (a number one digit off, a service line,
 * a foreign number and an extension all point at someone). The shapes, each matched by a pattern
 * (no numbering-plan library: the same rules run in the browser, within its budget):
 * - international: `+` or `00`, a country code, then 6 to 14 more digits in groups
 *   (`+33 6 12 34 56 78`, `0044 20 7946 0958`, `+49 (0)30 123456`);
 * - national with a trunk prefix 0, 9 to 12 digits in groups or run together
 *   (`06 12 34 56 78`, `0612345678`, `030 1234 5678`, `020 7946 0958`, `08 36 65 65 65`);
 * - North American, and an area code in brackets elsewhere: `(201) 555-0123`, `201-555-0123`,
 *   `201.555.0123`, `(11) 96123-4564`;
 * - four pairs after a trunk 0 (`06 03 85 36`), as in 8-digit plans;
 * - French: ten digits in the French plan's shape glued to words or in any spacing, service
 *   numbers `0 800 130 000`; Lithuanian: the trunk 8 (`8 612 34567`);
 * - plain groups after a word that announces a phone number (see {@link PHONE_WORD}).
 * An extension after any of them (`poste 12`, `ext. 4410`, `x23`) is part of the number.
 * Each shape is matched on a whole run of digit groups, never inside a longer one, and the run's
 * digits are counted. Not phone numbers: runs without a leading 0, + or area code in brackets
 * (SIREN 552 081 317, order numbers, prices), dates (`01/02/2024`: 8 digits), decimals
 * (`0.123456789`: a lone 0 first), short public numbers (112, 15, 3919).
 */
const INTERNATIONAL =
  /(?<![\p{L}\p{N}+.,]|\d[ \u00A0\u2009\u202F_./|-])(?:\+|00)[ \u00A0\u2009\u202F]?\(?[1-9]\d{0,3}\)?(?:[ \u00A0\u2009\u202F_./|-]{0,2}\(?\d{1,5}\)?){1,8}(?![\p{L}\p{N}])/gu;
const TRUNK = /(?<![\p{L}\p{N}.,/+-]|\d[ \u00A0\u2009\u202F_./|-])\(?0\d{1,4}\)?(?:[ \u00A0\u2009\u202F_./|-]?\d{1,5})*(?![\p{L}\p{N}])/gu;
const NANP =
  /(?<![\p{L}\p{N}.,/-]|\d[ \u00A0\u2009\u202F_./|-])(?:\(\d{2,4}\)[ \u00A0\u2009\u202F]?\d{3,5}|\d{3}[ \u00A0\u2009\u202F_.|-]\d{3})[ \u00A0\u2009\u202F_.|-]\d{4}(?![\p{L}\p{N}]|[.,/-]\d)/gu;
/** Four pairs of digits after a trunk 0 (`06 03 85 36`): the 8-digit plans of smaller countries; a date is never four pairs. */
const FOUR_PAIRS =
  /(?<![\p{L}\p{N}.,/+-]|\d[ \u00A0\u2009\u202F_./|-])0\d([ \u00A0\u2009\u202F_.|-])\d{2}\1\d{2}\1\d{2}(?![\p{L}\p{N}]|[ \u00A0.,/-]\d)/gu;
const EXTENSION = /^[ \u00A0,]*(?:\(?\s*(?:ext\.?|extension|poste|p\.|x|#|tel\.?\s*ext\.?)\s*\d{1,6}\)?)/iu;

/**
 * A French number glued to words (`tél0612345678`, `appelez-moi au06 12 34 56 78merci`), national or
 * with +33/0033, in any spacing (`07 - 73 - 05 - 07 - 86`): ten digits in the French plan's shape are a phone number even
 * without a space around them. Never inside a longer run of digits or digit groups.
 */
const FRENCH_GLUED =
  /(?<!\p{N}|\p{N}[ \u00A0_./|-]|\+)(?:(?:\+|00)33[ \u00A0_./|-]{0,2}(?:\(0\)[ \u00A0]?)?[1-9]|0[1-9])(?:[ \u00A0_./|-]{0,3}\d{2}){4}(?!\p{N}|[ \u00A0_./|-]\p{N})/gu;
/** A Lithuanian national number after its trunk 8, grouped as written: `8 612 34567`, `8-612-34567`, `8 (5) 212 3456`. */
const LITHUANIAN_TRUNK = /(?<![\p{L}\p{N}.,/+-]|\p{N}[ .-])8[ -]\(?[3-9]\d{0,2}\)?[ -]?\d{2,3}[ -]?\d{2,5}(?![\p{L}\p{N}]|[.,/-]\d)/gu;

/** Digits in a span of text. */
const digitCount = (text: string) => (text.match(/\d/g) ?? []).length;

function withExtension(text: string, end: number): number {
  const extension = EXTENSION.exec(text.slice(end, end + 24));
  return extension ? end + extension[0].length : end;
}

/**
 * Plans without a trunk prefix (Spain, Portugal, Poland, Denmark, Norway…) write a national number as
 * plain groups of digits (`612 345 678`, `601-234-567`, `91 23 45 67`), as are prices and company
 * numbers: such a group counts only after a word that announces a phone number, in one of the
 * arena's languages, shortly before it.
 */
const PHONE_WORD =
  /(?:t[ée]l(?:[ée]phone|efon(?:o|nummer|u|as)?|efono|\.)?|tlf\.?|phone|mobile?|mobil(?:nummer|telefon|us)|portable|cell|call|appel(?:le[rz]?)?|rappel(?:le[rz]?)?|ll[áa]m(?:a|ame|anos)|ligu?e|zadzwo[ńn]|numer(?:u)?|n[uú]mero|nummer|ring|sms|whatsapp|skambink|numeris)(?!\p{L})[^\n\d]{0,20}$/iu;
const LOCAL_GROUPS =
  /(?<![\p{L}\p{N}.,/+-]|\d[ \u00A0\u2009\u202F_./|-])\d{2,3}(?:[ \u00A0\u2009\u202F_.|-]\d{2,3}){2,3}(?![\p{L}\p{N}]|[.,/-]\d)/gu;

/**
 * Countries whose numbers have four or five digits (St Helena, Niue, Tokelau, Falklands, Tuvalu,
 * Tonga, Solomon Islands, Vanuatu, Kiribati): `+290 8978` is a number there, while seven digits
 * after another `+` are more often a count (`+1 000 000`).
 */
const SHORT_PLANS = /^(?:\+|00)[ \u00A0]?\(?(?:290|683|690|500|688|676|677|678|686)/;

/** French service numbers read as 1-3-3-3 (`0 800 130 000`, `0 892 68 01 22` is caught as pairs). */
const SERVICE = /(?<![\p{L}\p{N}.,/+-]|\p{N}[ .-])0[ \u00A0]?[89]\d{2}(?:[ \u00A0.]?\d{3}){2}(?![\p{L}\p{N}]|[.,/-]\d)/gu;

export function findPhoneNumbers(text: string): Span[] {
  const spans: Span[] = [];
  // Every shape below starts from digits.
  if (!/\d/.test(text)) return spans;
  const add = (start: number, end: number) => spans.push({ start, end: withExtension(text, end) });
  for (const match of text.matchAll(INTERNATIONAL)) {
    // With `00` for the `+`, two more digits: `0080 5981` is a reference number, not a call abroad.
    const digits = digitCount(match[0]) - (match[0].startsWith('00') ? 2 : 0);
    const shortPlan = SHORT_PLANS.test(match[0]);
    if (digits >= (shortPlan ? 7 : 8) && digits <= 17) add(match.index, match.index + match[0].length);
  }
  for (const match of text.matchAll(TRUNK)) {
    const digits = digitCount(match[0]);
    if (digits >= 9 && digits <= 12) add(match.index, match.index + match[0].length);
  }
  for (const match of text.matchAll(LITHUANIAN_TRUNK)) if (digitCount(match[0]) === 9) add(match.index, match.index + match[0].length);
  for (const pattern of [NANP, FOUR_PAIRS, FRENCH_GLUED])
    for (const match of text.matchAll(pattern)) add(match.index, match.index + match[0].length);
  for (const match of text.matchAll(LOCAL_GROUPS)) {
    const digits = digitCount(match[0]);
    if (digits >= 8 && digits <= 10 && PHONE_WORD.test(text.slice(Math.max(0, match.index - 40), match.index)))
      add(match.index, match.index + match[0].length);
  }
  for (const match of text.matchAll(SERVICE)) add(match.index, match.index + match[0].length);
  return firstOfOverlapping(spans);
}
