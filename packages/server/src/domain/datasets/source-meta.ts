import { COMPARIA_COLUMNS, type ColumnType, type ComparIaTable } from './export-columns';

/*
 * compar:IA's columns that Agora does not model travel in `source_meta`: `agora import comparia`
 * keeps them there ({@link comparIaSourceMeta}) and `agora export` gives them back
 * ({@link sourceMetaValue}) or derives them when a row has none.
 */

/**
 * The columns of an imported compar:IA row that Agora does not model, as the JSON object to store
 * in `source_meta` (null when there are none). Values are kept as they came.
 */
export function comparIaSourceMeta(table: ComparIaTable, row: Readonly<Record<string, unknown>>): Record<string, unknown> | null {
  const meta: Record<string, unknown> = {};
  for (const { name, modelledBy } of COMPARIA_COLUMNS[table]) {
    if (modelledBy === null && row[name] !== undefined && row[name] !== null) meta[name] = row[name];
  }
  return Object.keys(meta).length > 0 ? meta : null;
}

/**
 * The value `source_meta` holds for a column, when it holds one of the column's type; undefined
 * otherwise (the export then derives the value). Timestamps come back as ISO-8601 text.
 */
export function sourceMetaValue(meta: Readonly<Record<string, unknown>> | null, name: string, type: ColumnType): unknown {
  if (meta === null) return undefined;
  const value = meta[name];
  if (value === undefined || value === null) return undefined;
  switch (type) {
    case 'string':
      if (typeof value === 'string') return value;
      return typeof value === 'number' || typeof value === 'bigint' ? String(value) : undefined;
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
    case 'float':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'bool':
      return typeof value === 'boolean' ? value : undefined;
    case 'timestamp':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : undefined;
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
    case 'strings':
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
    case 'messages':
    case 'transcript':
      return Array.isArray(value) &&
        value.every((item) => typeof item === 'object' && item !== null && typeof (item as { role?: unknown }).role === 'string')
        ? value
        : undefined;
  }
}
