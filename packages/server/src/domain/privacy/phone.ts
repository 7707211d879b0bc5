import { findPhoneNumbersInText } from 'libphonenumber-js/max';
import type { Span } from './pii-kind';

/**
 * Phone numbers as people write them, valid or not: the screening excludes a conversation with a
 * phone-shaped number whatever the numbering plan says (a number one digit off, a service line,
 * a foreign number and an extension all point at someone). Three shapes, then libphonenumber-js
 * for the valid French numbers written in ways the shapes do not cover:
 * - international: `+` or `00`, a country code, then 6 to 14 more digits in groups
 *   (`+33 6 12 34 56 78`, `0044 20 7946 0958`, `+49 (0)30 123456`);
 * - national with a trunk prefix 0, 9 to 12 digits in groups or run together
 *   (`06 12 34 56 78`, `0612345678`, `030 1234 5678`, `020 7946 0958`, `08 36 65 65 65`);
 * - North American, and an area code in brackets elsewhere: `(201) 555-0123`, `201-555-0123`,
 *   `201.555.0123`, `(11) 96123-4564`;
 * - four pairs after a trunk 0 (`06 03 85 36`), as in 8-digit plans.
 * An extension after any of them (`poste 12`, `ext. 4410`, `x23`) is part of the number.
 * Each shape is matched on a whole run of digit groups, never inside a longer one, and the run's
 * digits are counted. Not phone numbers: runs without a leading 0, + or area code in brackets
 * (SIREN 552 081 317, order numbers, prices), dates (`01/02/2024`: 8 digits), decimals
 * (`0.123456789`: a lone 0 first), short public numbers (112, 15, 3919).
 */
const INTERNATIONAL =
  /(?<![\p{L}\p{N}+]|\d[ \u00A0./-])(?:\+|00)[ \u00A0]?\(?\d{1,4}\)?(?:[ \u00A0./-]{0,2}\(?\d{1,5}\)?){1,8}(?![\p{L}\p{N}])/gu;
const TRUNK = /(?<![\p{L}\p{N}.,/+-]|\d[ \u00A0./-])\(?0\d{1,4}\)?(?:[ \u00A0./-]?\d{1,5})*(?![\p{L}\p{N}])/gu;
const NANP =
  /(?<![\p{L}\p{N}.,/-]|\d[ \u00A0./-])(?:\(\d{2,4}\)[ \u00A0]?\d{3,5}|\d{3}[ \u00A0.-]\d{3})[ \u00A0.-]\d{4}(?![\p{L}\p{N}]|[.,/-]\d)/gu;
/** Four pairs of digits after a trunk 0 (`06 03 85 36`): the 8-digit plans of smaller countries; a date is never four pairs. */
const FOUR_PAIRS = /(?<![\p{L}\p{N}.,/+-]|\d[ \u00A0./-])0\d([ \u00A0.-])\d{2}\1\d{2}\1\d{2}(?![\p{L}\p{N}]|[ \u00A0.,/-]\d)/gu;
const EXTENSION = /^[ \u00A0,]*(?:\(?\s*(?:ext\.?|extension|poste|p\.|x|#|tel\.?\s*ext\.?)\s*\d{1,6}\)?)/iu;

/** Digits in a span of text. */
const digitCount = (text: string) => (text.match(/\d/g) ?? []).length;

function withExtension(text: string, end: number): number {
  const extension = EXTENSION.exec(text.slice(end, end + 24));
  return extension ? end + extension[0].length : end;
}

export function findPhoneNumbers(text: string): Span[] {
  const spans: Span[] = [];
  const add = (start: number, end: number) => {
    const span = { start, end: withExtension(text, end) };
    if (!spans.some((other) => other.start < span.end && span.start < other.end)) spans.push(span);
  };
  for (const match of text.matchAll(INTERNATIONAL)) {
    const digits = digitCount(match[0]);
    if (digits >= 8 && digits <= 17) add(match.index, match.index + match[0].length);
  }
  for (const match of text.matchAll(TRUNK)) {
    const digits = digitCount(match[0]);
    if (digits >= 9 && digits <= 12) add(match.index, match.index + match[0].length);
  }
  for (const pattern of [NANP, FOUR_PAIRS]) for (const match of text.matchAll(pattern)) add(match.index, match.index + match[0].length);
  // Valid French numbers in any other writing libphonenumber reads (with a + or a trunk 0 written).
  for (const found of findPhoneNumbersInText(text, { defaultCountry: 'FR' })) {
    const written = text.slice(found.startsAt, found.endsAt);
    // `0.413228853` is a decimal, not 04 13 22 88 53.
    if (found.number.isValid() && /^(?:\+|0)/.test(written) && !/^0[.,]\d+$/.test(written)) add(found.startsAt, found.endsAt);
  }
  return spans.sort((left, right) => left.start - right.start);
}
