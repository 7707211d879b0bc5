import { findBirthDates } from './birth-date';
import { findEmails } from './email';
import { findIbans } from './iban';
import { findNirs } from './nir';
import { findPaymentCards } from './payment-card';
import { findPhoneNumbers } from './phone';
import { PII_KINDS, type PiiFinding, type PiiKind, type Span } from './pii-kind';
import { findPostalAddresses } from './postal-address';

/** The verdict of the deterministic layer on one text. */
export interface PiiScreening {
  /** True when at least one kind was found: the whole conversation is to be excluded. */
  pii: boolean;
  /** The kinds found, each once, in the order of `PII_KINDS`. */
  kinds: PiiKind[];
  /** Every finding, by start offset. */
  findings: PiiFinding[];
}

const DETECTORS: ReadonlyArray<readonly [PiiKind, (text: string) => Span[]]> = [
  ['email', findEmails],
  ['iban', findIbans],
  ['nir', findNirs],
  ['card', findPaymentCards],
  ['phone', findPhoneNumbers],
  ['address', findPostalAddresses],
  ['birth_date', findBirthDates],
];

/**
 * A number claimed by a checksum detector is not also reported by a weaker one: digits inside an
 * IBAN are neither a card nor a NIR, and a NIR or card number is not a phone number.
 */
const OUTRANKED_BY: Partial<Record<PiiKind, readonly PiiKind[]>> = {
  nir: ['iban'],
  card: ['iban', 'nir'],
  phone: ['iban', 'nir', 'card', 'email'],
};

const overlaps = (left: Span, right: Span) => left.start < right.end && right.start < left.end;

/**
 * Screens one text with every deterministic detector (e-mail, phone, NIR, IBAN, payment card,
 * French postal address, date of birth in context). Names of people are not looked for here:
 * telling a private person from a public figure or a fictional character needs the model layer.
 */
/**
 * A visitor's comment (on a vote or a reaction) as it may be published: withheld (null) when the
 * rules find personal data in it. The comment is a field of its own, not part of the conversation,
 * so it is dropped whole and the conversation stays; a conversation's own texts exclude it instead.
 */
export function publishableComment(comment: string | null): string | null {
  return comment === null || screenText(comment).pii ? null : comment;
}

export function screenText(text: string): PiiScreening {
  const findings: PiiFinding[] = [];
  for (const [kind, detect] of DETECTORS) {
    const stronger = OUTRANKED_BY[kind] ?? [];
    for (const span of detect(text)) {
      const claimed = findings.some((found) => stronger.includes(found.kind) && overlaps(found, span));
      if (!claimed) findings.push({ kind, start: span.start, end: span.end });
    }
  }
  findings.sort((left, right) => left.start - right.start || left.end - right.end);
  const kinds = PII_KINDS.filter((kind) => findings.some((found) => found.kind === kind));
  return { pii: kinds.length > 0, kinds, findings };
}
