import { findBirthDates } from './birth-date';
import { findEmails } from './email';
import { findIbans } from './iban';
import { findNationalIdMatches } from './national-id';
import { findNirs } from './nir';
import { findPaymentCards } from './payment-card';
import { findPhoneNumbers } from './phone';
import { NATIONAL_ID_KINDS } from './national-id-kind';
import { PII_KINDS, type PiiFinding, type PiiKind, type Span } from './pii-kind';
import { originalSpan, type MappedText } from './mapped-text';
import { normaliseForScreening } from './normalise';
import { findPostalAddresses } from './postal-address';
import { findPublicRegisterNumbers } from './public-register';

/** The verdict of the deterministic layer on one text. */
export interface PiiScreening {
  /** True when at least one kind was found: the whole conversation is to be excluded. */
  pii: boolean;
  /** The kinds found, each once, in the order of `PII_KINDS`. */
  kinds: PiiKind[];
  /** Every finding, by start offset. */
  findings: PiiFinding[];
}

const single =
  (kind: PiiKind, find: (text: string) => Span[]) =>
  (text: string): PiiFinding[] =>
    find(text).map((span) => ({ kind, ...span }));

/** In the order a number is claimed: a stronger check first (see {@link OUTRANKED_BY}). */
const DETECTORS: ReadonlyArray<(text: string) => PiiFinding[]> = [
  single('email', findEmails),
  single('iban', findIbans),
  single('nir', findNirs),
  single('card', findPaymentCards),
  findNationalIdMatches,
  single('phone', findPhoneNumbers),
  single('address', findPostalAddresses),
  single('birth_date', findBirthDates),
];

/**
 * A number claimed by a checksum detector is not also reported by a weaker one: digits inside an
 * IBAN are neither a card nor a NIR, and a NIR or card number is not a phone number.
 */
const CHECKSUMMED: readonly PiiKind[] = ['iban', 'nir', 'card'];
const OUTRANKED_BY: Partial<Record<PiiKind, readonly PiiKind[]>> = {
  nir: ['iban'],
  card: ['iban', 'nir'],
  ...Object.fromEntries(NATIONAL_ID_KINDS.map((kind) => [kind, CHECKSUMMED])),
  // A phone number is only a shape: any identifier validated by its checksum or date wins.
  phone: [...CHECKSUMMED, 'email', ...NATIONAL_ID_KINDS],
};

const overlaps = (left: Span, right: Span) => left.start < right.end && right.start < left.end;

/**
 * A visitor's comment (on a vote or a reaction) as it may be published: withheld (null) when the
 * rules find personal data in it. The comment is a field of its own, not part of the conversation,
 * so it is dropped whole and the conversation stays; a conversation's own texts exclude it instead.
 */
export function publishableComment(comment: string | null): string | null {
  return comment === null || screenText(comment).pii ? null : comment;
}

/**
 * Screens one text with every deterministic detector, after {@link normaliseForScreening} has
 * undone the usual disguises (fullwidth forms, entities, zero-width characters, letters for
 * digits, numbers in words, line breaks); the findings' offsets are the original text's.
 */
export function screenText(text: string): PiiScreening {
  const [plain, guessed] = normaliseForScreening(text);
  const first = screenReading(plain!);
  if (!guessed) return first;
  const second = screenReading(guessed);
  // Both readings' findings, overlaps settled as within one: a finding outranked by an overlapping one
  // of a stronger kind goes (a CPR the second reading sees wins over the phone-shaped digits of the
  // first), and of two overlapping findings of one kind the first reading's stays.
  const all = [...first.findings, ...second.findings];
  const findings = all
    .filter((found, index) =>
      overlapping(all, index).every(
        (otherIndex) =>
          !(OUTRANKED_BY[found.kind] ?? []).includes(all[otherIndex]!.kind) && (all[otherIndex]!.kind !== found.kind || otherIndex > index),
      ),
    )
    .sort((left, right) => left.start - right.start || left.end - right.end);
  const kinds = PII_KINDS.filter((kind) => findings.some((found) => found.kind === kind));
  return { pii: kinds.length > 0, kinds, findings };
}

/**
 * The indices of the findings that overlap `all[index]`, found from the findings sorted by start
 * (cached per array) instead of against every other: a text of 8,000 phone-shaped numbers read twice
 * took 64 million comparisons (220 ms at 120 k characters, growing with the square of the text).
 */
function overlapping(all: readonly PiiFinding[], index: number): number[] {
  const { order, position, maxEnd } = sortedByStart(all);
  const found = all[index]!;
  const result: number[] = [];
  const at = position[index]!;
  for (let next = at + 1; next < order.length && all[order[next]!]!.start < found.end; next += 1)
    if (overlaps(all[order[next]!]!, found)) result.push(order[next]!);
  // Earlier findings reach past `found.start` only while the longest end so far does.
  for (let previous = at - 1; previous >= 0 && maxEnd[previous]! > found.start; previous -= 1)
    if (overlaps(all[order[previous]!]!, found)) result.push(order[previous]!);
  return result;
}

const sortedCache = new WeakMap<readonly PiiFinding[], { order: number[]; position: number[]; maxEnd: number[] }>();
function sortedByStart(all: readonly PiiFinding[]): { order: number[]; position: number[]; maxEnd: number[] } {
  const cached = sortedCache.get(all);
  if (cached) return cached;
  const order = all.map((_, index) => index).sort((left, right) => all[left]!.start - all[right]!.start);
  const position: number[] = [];
  const maxEnd: number[] = [];
  order.forEach((index, at) => {
    position[index] = at;
    maxEnd[at] = Math.max(at > 0 ? maxEnd[at - 1]! : Number.NEGATIVE_INFINITY, all[index]!.end);
  });
  const sorted = { order, position, maxEnd };
  sortedCache.set(all, sorted);
  return sorted;
}

/** The screening of one reading, its findings' offsets mapped back to the original text. */
function screenReading(reading: MappedText): PiiScreening {
  const screening = screenPlainText(reading.text);
  if (reading.starts === null) return screening;
  return { ...screening, findings: screening.findings.map((finding) => ({ kind: finding.kind, ...originalSpan(reading, finding) })) };
}

function screenPlainText(text: string): PiiScreening {
  const findings: PiiFinding[] = [];
  // Spans kept so far, per kind, in start order: a claim is checked by binary search, not against every finding.
  const kept = new Map<PiiKind, PiiFinding[]>();
  for (const detect of DETECTORS) {
    const fresh: PiiFinding[] = [];
    for (const found of detect(text)) {
      const stronger = OUTRANKED_BY[found.kind] ?? [];
      if (!stronger.some((kind) => overlapsAny(kept.get(kind), found))) fresh.push(found);
    }
    for (const found of fresh) {
      findings.push(found);
      const list = kept.get(found.kind) ?? [];
      list.push(found);
      kept.set(found.kind, list);
    }
    for (const list of kept.values()) list.sort((left, right) => left.start - right.start);
  }
  // A public register's number after its label (RPPS, FINESS, ADELI) names no patient.
  const registers = findPublicRegisterNumbers(text);
  const published = findings.filter((found) => !registers.some((span) => span.start <= found.start && found.end <= span.end));
  published.sort((left, right) => left.start - right.start || left.end - right.end);
  const kinds = PII_KINDS.filter((kind) => published.some((found) => found.kind === kind));
  return { pii: kinds.length > 0, kinds, findings: published };
}

/** Whether `span` overlaps one of `sorted` (non-overlapping spans of one detector, by start). */
function overlapsAny(sorted: readonly Span[] | undefined, span: Span): boolean {
  if (!sorted || sorted.length === 0) return false;
  let low = 0;
  let high = sorted.length;
  // The last span that starts before `span` ends is the only one that can overlap it.
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]!.start < span.end) low = middle + 1;
    else high = middle;
  }
  return low > 0 && overlaps(sorted[low - 1]!, span);
}
