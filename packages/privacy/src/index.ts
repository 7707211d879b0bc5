/**
 * Personal-data screening, deterministic layer: precise detectors whose findings exclude a whole
 * conversation from the open datasets (never redaction). Pure: no I/O, no clock, no randomness.
 * See docs/privacy.md.
 */
export { findBirthDates } from './birth-date';
export { findEmails } from './email';
export { findIbans, isValidIban } from './iban';
export { NATIONAL_ID_KINDS, type NationalIdKind } from './national-id-kind';
export {
  findNationalIdMatches,
  findNationalIds,
  isValidAsmensKodas,
  isValidBelgianNationalNumber,
  isValidBsn,
  isValidCodiceFiscale,
  isValidCpr,
  isValidDni,
  isValidNie,
  isValidPesel,
  isValidPersonnummer,
  isValidSteuerId,
} from './national-id';
export { findNirs, hasNirStructure, isValidNir, nirKey } from './nir';
export { findPaymentCards, isCardNumber, passesLuhn } from './payment-card';
export { findPhoneNumbers } from './phone';
export { PII_KINDS, type PiiFinding, type PiiKind, type Span } from './pii-kind';
export { findPostalAddresses } from './postal-address';
export { publishableComment, screenText, type PiiScreening } from './screen-text';
export { normaliseForScreening } from './normalise';
export { originalSpan, type MappedText } from './mapped-text';
