import { findPhoneNumbersInText } from 'libphonenumber-js/max';
import type { Span } from './pii-kind';

/**
 * Number types that belong to services, not people: toll-free (0 800 …), shared-cost and
 * premium-rate lines, universal access numbers.
 */
const SERVICE_TYPES = new Set(['TOLL_FREE', 'PREMIUM_RATE', 'SHARED_COST', 'UAN']);

/**
 * Phone numbers, French by default and international with a `+` or `00` prefix, found and
 * validated by libphonenumber-js with its full metadata: only numbers valid for their country
 * count. Short public numbers (112, 15, 17, 18, 3919) are never valid subscriber numbers, and
 * toll-free, shared-cost and premium-rate numbers are services, so neither is reported. A number
 * must be written with its trunk prefix 0 or an international prefix (+, 00), as phone numbers
 * are in France: « SIREN 552 081 317 » is not read as 05 52 08 13 17.
 */
export function findPhoneNumbers(text: string): Span[] {
  const spans: Span[] = [];
  for (const found of findPhoneNumbersInText(text, { defaultCountry: 'FR' })) {
    if (!found.number.isValid() || !/^(?:\+|0)/.test(text.slice(found.startsAt, found.endsAt))) continue;
    const type = found.number.getType();
    if (type !== undefined && SERVICE_TYPES.has(type)) continue;
    spans.push({ start: found.startsAt, end: found.endsAt });
  }
  return spans;
}
