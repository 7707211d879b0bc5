/** A row that cannot be imported; the service adds the file and the line or row. */
export class ComparIaRowError extends Error {
  override readonly name = 'ComparIaRowError';
}

/**
 * A value as JSON can hold it: Parquet readers give 64-bit integers as bigint and timestamps as
 * Date; both become what the JSON Lines files of the same dataset hold (numbers, ISO text).
 */
export function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plainValue);
  if (value !== null && typeof value === 'object') {
    const plain: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) if (inner !== undefined) plain[key] = plainValue(inner);
    return plain;
  }
  return value;
}

/** JSON text of an object, or null for nothing to keep. */
export function jsonOrNull(value: Record<string, unknown> | null): string | null {
  return value === null || Object.keys(value).length === 0 ? null : JSON.stringify(plainValue(value));
}

/** A required non-empty string (numbers are accepted as text: pair ids are sometimes numeric). */
export function requiredText(row: Record<string, unknown>, column: string): string {
  const value = row[column];
  if (typeof value === 'string' && value.length > 0) return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  throw new ComparIaRowError(`${column} must be a non-empty string (got ${describe(value)})`);
}

export function optionalText(row: Record<string, unknown>, column: string): string | null {
  const value = row[column];
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  throw new ComparIaRowError(`${column} must be a string or null (got ${describe(value)})`);
}

export function optionalBoolean(row: Record<string, unknown>, column: string): boolean | null {
  const value = row[column];
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1) return value === 1;
  throw new ComparIaRowError(`${column} must be true, false or null (got ${describe(value)})`);
}

export function optionalInteger(row: Record<string, unknown>, column: string): number | null {
  const value = typeof row[column] === 'bigint' ? Number(row[column]) : row[column];
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  throw new ComparIaRowError(`${column} must be an integer or null (got ${describe(value)})`);
}

/** A list of strings (JSON lists, Parquet lists, or JSON text of a list); null when absent. */
export function optionalStrings(row: Record<string, unknown>, column: string): string[] | null {
  let value = row[column];
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') value = parseJsonText(value, column);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw new ComparIaRowError(`${column} must be a list of strings or null (got ${describe(value)})`);
}

/**
 * A timestamp as ISO-8601 UTC with milliseconds: epoch milliseconds (JSON Lines written by
 * pandas), a Date (Parquet), or text; text without a zone is UTC, as compar:IA's database writes it.
 */
export function timestamp(row: Record<string, unknown>, column: string): string {
  const value = row[column];
  let date: Date | undefined;
  if (value instanceof Date) date = value;
  else if (typeof value === 'number' || typeof value === 'bigint') date = new Date(Number(value));
  else if (typeof value === 'string' && /^\d+$/.test(value)) date = new Date(Number(value));
  else if (typeof value === 'string') {
    const text = value.trim().replace(' ', 'T');
    date = new Date(/(Z|[+-]\d\d:?\d\d)$/.test(text) ? text : `${text}Z`);
  }
  if (date === undefined || Number.isNaN(date.getTime())) {
    throw new ComparIaRowError(`${column} must be a timestamp (epoch milliseconds or ISO-8601; got ${describe(value)})`);
  }
  return date.toISOString();
}

export function parseJsonText(text: string, column: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ComparIaRowError(`${column} holds text that is not JSON (${text.slice(0, 40)}…)`);
  }
}

export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'bigint') return String(value);
  // JSON.stringify gives undefined for functions and symbols, which no parsed row holds.
  const text = JSON.stringify(value) ?? typeof value;
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
