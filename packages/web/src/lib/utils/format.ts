/** `{min, max}` as "1.2 Wh" or "1.2–3.4 Wh" with up to two significant decimals, in the locale. */
export function formatRange(range: { min: number; max: number }, unit: string, locale: string): string {
  const format = (value: number) =>
    new Intl.NumberFormat(locale, {
      maximumSignificantDigits: value >= 100 ? undefined : 2,
      maximumFractionDigits: value >= 100 ? 0 : undefined,
    }).format(value);
  const low = format(range.min);
  const high = format(range.max);
  return (low === high ? `${low} ${unit}` : `${low}–${high} ${unit}`).trim();
}

/** A share in [0, 1] as a percentage. */
export function formatPercent(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(value);
}

/** What a CSV cell can hold. */
export type CsvValue = string | number | boolean | null | undefined;

/** Rows as RFC 4180 CSV (quoted where needed, CRLF line ends). */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  const cell = (value: CsvValue) => {
    const text = value === null || value === undefined ? '' : String(value);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}
