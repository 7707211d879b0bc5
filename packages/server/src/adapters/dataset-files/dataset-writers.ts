import { closeSync, openSync, writeSync } from 'node:fs';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import { ParquetWriter, fileWriter } from 'hyparquet-writer';
import type { ColumnType } from '../../domain/datasets/export-columns';
import type { ChatMessage, DatasetColumn, DatasetRow, TranscriptMessage } from '../../domain/datasets/export-columns';

import type { DatasetFormat } from '../../domain/datasets/export-columns';
export { DATASET_FORMATS, type DatasetFormat } from '../../domain/datasets/export-columns';

/** Rows go in one by one; the files are complete after {@link DatasetFileWriter.finish}. */
export interface DatasetFileWriter {
  readonly format: DatasetFormat;
  /** The files written so far, in order. */
  readonly paths: readonly string[];
  /** Rows held in memory, not written yet (a Parquet row group being filled). */
  readonly pendingRows: number;
  add(row: DatasetRow): void;
  /** Writes the rows held now, as a smaller row group (what keeps many writers' memory bounded). */
  flush(): void;
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
      return [
        {
          name,
          type: 'INT64',
          repetition_type: 'OPTIONAL',
          converted_type: 'TIMESTAMP_MILLIS',
          logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
        },
      ];
    case 'date':
      // Days since the epoch: no time of day in the file (the public tier's timestamps).
      return [{ name, type: 'INT32', repetition_type: 'OPTIONAL', converted_type: 'DATE', logical_type: { type: 'DATE' } }];
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
    case 'transcript':
      // compar:IA's own message struct, so that its notebooks read Agora's files unchanged.
      return [
        { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', logical_type: { type: 'LIST' }, num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', repetition_type: 'OPTIONAL', num_children: 4 },
        { name: 'role', ...utf8 },
        { name: 'content', ...utf8 },
        { name: 'reasoning_content', ...utf8 },
        { name: 'metadata', repetition_type: 'OPTIONAL', num_children: 3 },
        { name: 'generation_id', ...utf8 },
        { name: 'output_tokens', type: 'INT64', repetition_type: 'OPTIONAL' },
        { name: 'duration', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
      ];
  }
}

/** The Parquet schema of a dataset (root first). */
export function parquetSchema(columns: readonly DatasetColumn[]): SchemaElement[] {
  return [{ name: 'root', num_children: columns.length }, ...columns.flatMap(schemaOf)];
}

interface EncodedMessage {
  role: Uint8Array;
  content: Uint8Array;
}

interface EncodedTranscriptMessage extends EncodedMessage {
  reasoning_content: Uint8Array | null;
  metadata: { generation_id: Uint8Array | null; output_tokens: bigint | null; duration: number | null } | null;
}

/** Where a message (list) keeps its UTF-8 form: a symbol key, so JSON and object spreads never see it. */
const ENCODED = Symbol('utf8');

type WithEncoded<T, E> = T & { [ENCODED]?: E };

/**
 * UTF-8 bytes of the text of one export, shared by all its Parquet files. The same messages and
 * strings appear in several datasets (a conversation's answers are in conversations, votes,
 * reactions, dpo, reward…; model names and languages in every row), so each is encoded once, not
 * once per row. Message bytes hang on the message objects themselves and go when the rows that use
 * them do; short strings are kept in a cache emptied now and then, so memory stays bounded.
 * `Buffer.from` carves short strings out of Node's shared pool instead of giving each its own
 * ArrayBuffer as `TextEncoder.encode` does (hyparquet-writer's own conversion of string cells):
 * about 7 % less CPU for the whole export (docs/datasets.md, "Speed").
 */
export class Utf8Encodings {
  private readonly strings = new Map<string, Uint8Array>();

  messageList(list: readonly ChatMessage[]): EncodedMessage[] {
    const holder = list as WithEncoded<readonly ChatMessage[], EncodedMessage[]>;
    return (holder[ENCODED] ??= list.map((message) => this.message(message)));
  }

  /** A raw conversation column: the same list is in the conversation, vote and reaction rows of a pair. */
  transcript(list: readonly TranscriptMessage[]): EncodedTranscriptMessage[] {
    const holder = list as WithEncoded<readonly TranscriptMessage[], EncodedTranscriptMessage[]>;
    return (holder[ENCODED] ??= list.map((message) => {
      const { role, content } = this.message(message);
      if (!('metadata' in message)) return { role, content, reasoning_content: null, metadata: null };
      const { generation_id, output_tokens, duration } = message.metadata;
      return {
        role,
        content,
        reasoning_content: message.reasoning_content === null ? null : Buffer.from(message.reasoning_content),
        metadata: {
          generation_id: generation_id === null ? null : this.text(generation_id),
          output_tokens: output_tokens === null ? null : BigInt(output_tokens),
          duration,
        },
      };
    }));
  }

  text(value: string): Uint8Array {
    // Repeats are short (model names, languages, roles, modes); caching long unique text would only
    // pin pool slabs (a 1M export peaked at 480 MB with every string cached, against 462 MB before).
    if (value.length > 40) return Buffer.from(value);
    let bytes = this.strings.get(value);
    if (bytes === undefined) {
      if (this.strings.size >= 10_000) this.strings.clear();
      bytes = Buffer.from(value);
      this.strings.set(value, bytes);
    }
    return bytes;
  }

  private message(message: ChatMessage): EncodedMessage {
    const holder = message as WithEncoded<ChatMessage, EncodedMessage>;
    return (holder[ENCODED] ??= { role: this.text(message.role), content: Buffer.from(message.content) });
  }
}

const DAY_MS = 86_400_000;

function parquetValue(type: ColumnType, encodings: Utf8Encodings): (value: unknown) => unknown {
  switch (type) {
    case 'int':
      return (value) => (value === null ? null : BigInt(value as number));
    case 'timestamp':
      return (value) => (value === null ? null : Date.parse(value as string));
    case 'date':
      return (value) => (value === null ? null : Date.parse(`${value as string}T00:00:00Z`) / DAY_MS);
    case 'messages':
      return (value) => (value === null ? null : encodings.messageList(value as ChatMessage[]));
    case 'transcript':
      return (value) => (value === null ? null : encodings.transcript(value as TranscriptMessage[]));
    case 'string':
      return (value) => (value === null ? null : encodings.text(value as string));
    case 'strings':
      return (value) => (value === null ? null : (value as string[]).map((item) => encodings.text(item)));
    case 'float':
    case 'bool':
      return (value) => value;
  }
}

/** Types whose min/max statistics help readers skip row groups; text statistics cost time and say little. */
const WITH_STATISTICS = new Set<ColumnType>(['int', 'float', 'bool', 'timestamp', 'date']);

/**
 * Brotli at quality 1: native zlib, about four times faster than the pure-JS Snappy and smaller.
 * pyarrow (Hugging Face datasets), DuckDB and `agora leaderboard --votes` all read it.
 */
const brotli = (input: Uint8Array): Uint8Array =>
  brotliCompressSync(input, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: input.length } });

/** Where the Parquet writers put their files and how they cut them. */
export interface ParquetLayout {
  /** `<folder>/train-00000.parquet`, `train-00001.parquet`, … */
  folder: string;
  rowGroupRows: number;
  /** A file is closed after this many rows and the next one started (its footer stays small). */
  fileRows: number;
}

/** The path of the n-th Parquet file of a dataset (Hugging Face's `train-*` shards). */
export const parquetShardPath = (folder: string, index: number): string => `${folder}/train-${String(index).padStart(5, '0')}.parquet`;

/**
 * Parquet in row groups of `rowGroupRows`, cut into files of `fileRows`: only one group's rows
 * are held at a time, and the writer's per-group metadata (kept until the footer) only for one
 * file, so memory is bounded whatever the number of rows. No timestamps or random values: same
 * rows, same bytes.
 */
export function parquetFileWriter(columns: readonly DatasetColumn[], layout: ParquetLayout, encodings: Utf8Encodings): DatasetFileWriter {
  const schema = parquetSchema(columns);
  const paths: string[] = [];
  const open = (): ParquetWriter => {
    const path = parquetShardPath(layout.folder, paths.length);
    paths.push(path);
    return new ParquetWriter({
      writer: fileWriter(path),
      schema,
      codec: 'BROTLI',
      compressors: { BROTLI: brotli },
      createdBy: 'agora export',
    });
  };
  let writer: ParquetWriter | undefined;
  let pending: DatasetRow[] = [];
  let fileRows = 0;
  const flush = (): void => {
    if (pending.length === 0) return;
    const group = pending;
    pending = [];
    const columnData = columns.map((column) => {
      const convert = parquetValue(column.type, encodings);
      // Answers are seldom repeated within a row group: trying a dictionary on them costs more than it saves.
      const encoding = column.type === 'messages' || column.type === 'transcript' ? ('PLAIN' as const) : undefined;
      return {
        name: column.name,
        data: group.map((row) => convert(row[column.name] ?? null)),
        statistics: WITH_STATISTICS.has(column.type),
        encoding,
      };
    });
    writer ??= open();
    void writer.write({ columnData, rowGroupSize: group.length });
  };
  return {
    format: 'parquet',
    paths,
    get pendingRows() {
      return pending.length;
    },
    flush,
    add(row) {
      pending.push(row);
      fileRows++;
      if (pending.length >= layout.rowGroupRows || fileRows >= layout.fileRows) flush();
      if (fileRows >= layout.fileRows) {
        finishFile(writer!);
        writer = undefined;
        fileRows = 0;
      }
    },
    finish() {
      flush();
      // An empty dataset still gets its (empty) file, so that the card's config points at something.
      const last = writer ?? (paths.length === 0 ? open() : undefined);
      if (last) finishFile(last);
      writer = undefined;
    },
  };
}

/**
 * Ends a Parquet file. Its writer is a `fileWriter`, which writes synchronously, so `finish` returns
 * nothing to wait for; a promise here would mean a file still being written when the export reports it.
 */
function finishFile(writer: ParquetWriter): void {
  const done = writer.finish();
  if (done instanceof Promise) throw new Error('a Parquet file writer finished asynchronously');
}

/**
 * JSON Lines, one row per line, keys in column order; written in ~1 MB chunks. A `messages` column
 * (TRL's shape) is written with role and content only, whatever else its messages carry.
 */
export function jsonlFileWriter(path: string, columns: readonly DatasetColumn[]): DatasetFileWriter {
  const plainMessages = columns.filter((column) => column.type === 'messages').map((column) => column.name);
  const plain = (value: unknown) =>
    value === null || value === undefined ? value : (value as ChatMessage[]).map(({ role, content }) => ({ role, content }));
  const line = (row: DatasetRow): string => {
    if (plainMessages.length === 0) return JSON.stringify(row);
    const copy = { ...row };
    for (const name of plainMessages) copy[name] = plain(row[name]);
    return JSON.stringify(copy);
  };
  const fd = openSync(path, 'w');
  let buffer = '';
  const flush = (): void => {
    if (buffer.length === 0) return;
    writeSync(fd, buffer);
    buffer = '';
  };
  return {
    format: 'jsonl',
    paths: [path],
    pendingRows: 0,
    flush,
    add(row) {
      buffer += `${line(row)}\n`;
      if (buffer.length >= 1 << 20) flush();
    },
    finish() {
      flush();
      closeSync(fd);
    },
  };
}
