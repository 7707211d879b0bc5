import { closeSync, openSync, writeSync } from 'node:fs';
import { ParquetWriter, fileWriter } from 'hyparquet-writer';
import type { ColumnType } from './comparia-columns';
import type { DatasetColumn, DatasetRow } from './dataset-definitions';

export const DATASET_FORMATS = ['parquet', 'jsonl'] as const;
export type DatasetFormat = (typeof DATASET_FORMATS)[number];

/** Rows go in one by one; the file is complete after {@link DatasetFileWriter.finish}. */
export interface DatasetFileWriter {
  readonly path: string;
  readonly rows: number;
  add(row: DatasetRow): void;
  finish(): void;
}

type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]['schema'][number];

const utf8 = { type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' } as const;

/** Schema elements of one column: explicit, so nested columns are real lists, not JSON text. */
function schemaOf(column: DatasetColumn): SchemaElement[] {
  const { name } = column;
  switch (column.type) {
    case 'string':
      return [{ name, ...utf8 }];
    case 'int':
      return [{ name, type: 'INT64', repetition_type: 'OPTIONAL' }];
    case 'float':
      return [{ name, type: 'DOUBLE', repetition_type: 'OPTIONAL' }];
    case 'bool':
      return [{ name, type: 'BOOLEAN', repetition_type: 'OPTIONAL' }];
    case 'timestamp':
      return [{ name, type: 'INT64', repetition_type: 'OPTIONAL', converted_type: 'TIMESTAMP_MILLIS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' } }];
    case 'strings':
      return [
        { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', logical_type: { type: 'LIST' }, num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', ...utf8 },
      ];
    case 'messages':
      return [
        { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', logical_type: { type: 'LIST' }, num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', repetition_type: 'OPTIONAL', num_children: 2 },
        { name: 'role', ...utf8 },
        { name: 'content', ...utf8 },
      ];
  }
}

/** The Parquet schema of a dataset (root first). */
export function parquetSchema(columns: readonly DatasetColumn[]): SchemaElement[] {
  return [{ name: 'root', num_children: columns.length }, ...columns.flatMap(schemaOf)];
}

const toParquet: Record<ColumnType, (value: unknown) => unknown> = {
  string: (value) => value,
  int: (value) => (value === null ? null : BigInt(value as number)),
  float: (value) => value,
  bool: (value) => value,
  timestamp: (value) => (value === null ? null : Date.parse(value as string)),
  strings: (value) => value,
  messages: (value) => value,
};

/**
 * Parquet in row groups of `rowGroupRows`: only one group's rows are held at a time, so memory is
 * bounded whatever the number of rows. No timestamps or random values: same rows, same bytes.
 */
export function parquetFileWriter(path: string, columns: readonly DatasetColumn[], rowGroupRows: number): DatasetFileWriter {
  const writer = new ParquetWriter({ writer: fileWriter(path), schema: parquetSchema(columns), createdBy: 'agora export' });
  let pending: DatasetRow[] = [];
  let rows = 0;
  const flush = (): void => {
    if (pending.length === 0) return;
    const group = pending;
    pending = [];
    const columnData = columns.map((column) => {
      const convert = toParquet[column.type];
      return { name: column.name, data: group.map((row) => convert(row[column.name] ?? null)) };
    });
    void writer.write({ columnData, rowGroupSize: group.length });
  };
  return {
    path,
    get rows() {
      return rows;
    },
    add(row) {
      pending.push(row);
      rows++;
      if (pending.length >= rowGroupRows) flush();
    },
    finish() {
      flush();
      writer.finish();
    },
  };
}

/** JSON Lines, one row per line, keys in column order; written in ~1 MB chunks. */
export function jsonlFileWriter(path: string): DatasetFileWriter {
  const fd = openSync(path, 'w');
  let buffer = '';
  let rows = 0;
  const flush = (): void => {
    if (buffer.length === 0) return;
    writeSync(fd, buffer);
    buffer = '';
  };
  return {
    path,
    get rows() {
      return rows;
    },
    add(row) {
      buffer += `${JSON.stringify(row)}\n`;
      rows++;
      if (buffer.length >= 1 << 20) flush();
    },
    finish() {
      flush();
      closeSync(fd);
    },
  };
}
