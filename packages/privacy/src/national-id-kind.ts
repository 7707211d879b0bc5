/**
 * The national identifiers' kinds and what one written form of them is, in a module of their own:
 * the detectors (national-id.ts, french-id.ts) and the list of every kind (pii-kind.ts) import
 * them from here, so that no two of those import each other.
 */

/** The national identifiers national-id.ts and french-id.ts find, one per format (Spain has two: citizens and foreigners). */
export const NATIONAL_ID_KINDS = [
  'se_personnummer',
  'dk_cpr',
  'lt_asmens_kodas',
  'de_steuer_id',
  'es_dni',
  'es_nie',
  'it_codice_fiscale',
  'nl_bsn',
  'be_national_number',
  'pl_pesel',
  'fr_siren',
  'fr_passport',
  'fr_id_card',
] as const;

export type NationalIdKind = (typeof NATIONAL_ID_KINDS)[number];

/** One written form of an identifier: where it may stand, how it is checked, what must announce it. */
export interface Writing {
  kind: NationalIdKind;
  /** The written forms, without the boundaries. */
  pattern: string;
  validate: (compact: string) => boolean;
  /** When set, the number counts only near one of these words. */
  context?: RegExp;
}
