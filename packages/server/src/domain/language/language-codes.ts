/** The code for "unsure", as in BCP 47 and compar:IA's `languages` column. */
export const UNDETERMINED = 'und';

/** CLD2's legacy and unknown codes → ISO 639-1 (or 639-3 where 639-1 has none). */
const LEGACY_CODES: Record<string, string> = {
  iw: 'he',
  jw: 'jv',
  in: 'id',
  ji: 'yi',
  mo: 'ro',
  sh: 'sr',
  tw: 'ak',
  zhx: 'zh',
  un: UNDETERMINED,
  xxx: UNDETERMINED,
};

/**
 * A detector's code as ISO 639-1 where one exists, else ISO 639-3: region and script subtags are
 * dropped (`zh-Hant` → `zh`), CLD2's withdrawn codes are renamed (`iw` → `he`), and its unknown
 * codes (`un`, `xx-…`) become `und`.
 */
export function normaliseLanguageCode(code: string | undefined): string {
  const base = (code ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  if (base === '' || base === 'xx' || !/^[a-z]{2,3}$/.test(base)) return UNDETERMINED;
  return LEGACY_CODES[base] ?? base;
}
