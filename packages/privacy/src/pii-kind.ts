import { NATIONAL_ID_KINDS } from './national-id-kind';

/**
 * The kinds of personal data the deterministic layer detects (names are left to the model layer):
 * the common ones, then the national identifiers of European languages, each by its format.
 */
export const PII_KINDS = ['email', 'phone', 'nir', 'iban', 'card', 'address', 'birth_date', ...NATIONAL_ID_KINDS] as const;

/** One kind of personal data, as printed by `agora pii`. */
export type PiiKind = (typeof PII_KINDS)[number];

/** Where a detector found personal data: `text.slice(start, end)` (UTF-16 offsets). */
export interface PiiFinding {
  kind: PiiKind;
  start: number;
  end: number;
}

/** A span of the text, as returned by one detector. */
export interface Span {
  start: number;
  end: number;
}
