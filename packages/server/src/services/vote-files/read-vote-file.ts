import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { VoteTableBuilder, type VoteTable } from '../../domain/ranking';
import { FlatJsonParser } from './flat-json';
import { openParquetVotes } from './parquet-records';
import { ArraySplitter, LineSplitter } from './record-splitter';
import { loadCl100kTokenCounter } from './token-counter';
import { VoteFileError } from './vote-file-error';
import {
  createRowConverter,
  detectFormat,
  FORMAT_COLUMNS,
  TEXT_COLUMNS,
  VoteRowError,
  type ConvertedRow,
  type RowOptions,
  type SkipReason,
  type VoteFileFormat,
} from './vote-formats';

/** Options of {@link readVoteFile}. */
export interface ReadVoteFileOptions {
  /** Flags that leave a row out (default `identity_leak` and `abuse`); [] keeps every row. */
  excludeFlags?: readonly string[] | undefined;
  /**
   * Count style features from the conversation text of rows that carry no counts (tokens with
   * cl100k_base, FastChat's markdown rules). Slow; only needed for style control.
   */
  styleFromText?: boolean | undefined;
}

/** What reading a vote file produced. */
export interface VoteFileContents {
  table: VoteTable;
  format: VoteFileFormat;
  container: 'jsonl' | 'json-array' | 'parquet';
  gzip: boolean;
  /** Records (lines, elements or rows) read. */
  records: number;
  /** Valid records that are not votes: flagged, duplicate conversation pair, or no outcome. */
  skipped: Record<SkipReason, number>;
}

const GZIP_MAGIC = [0x1f, 0x8b];
const PARQUET_MAGIC = [0x50, 0x41, 0x52, 0x31];

/**
 * Reads a vote file into a {@link VoteTable}: JSON Lines or a JSON array, optionally gzipped, or
 * Parquet. The row format (Agora/fixture, FastChat battles, compar:IA votes) is detected from the
 * first row. A row that cannot be a vote (unknown winner, missing model, bad count) stops the
 * read with a {@link VoteFileError} naming the file and line; it is never silently counted as ½.
 */
export async function readVoteFile(
  path: string,
  options: ReadVoteFileOptions = {},
): Promise<VoteFileContents> {
  const head = await readHead(path);
  const rowOptions: RowOptions = {
    excludeFlags: options.excludeFlags,
    styleFromText: options.styleFromText,
    countTokens: options.styleFromText ? await loadCl100kTokenCounter() : undefined,
  };
  if (startsWith(head, PARQUET_MAGIC)) return readParquet(path, rowOptions);
  return readJsonText(path, startsWith(head, GZIP_MAGIC), rowOptions);
}

async function readHead(path: string): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new VoteFileError(path, undefined, `cannot open (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    const head = new Uint8Array(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((byte, index) => bytes[index] === byte);
}

/** Turns records into votes, detecting the format on the first one. */
class VoteCollector {
  readonly builder = new VoteTableBuilder(1 << 16);
  readonly skipped: Record<SkipReason, number> = { flagged: 0, duplicate: 0, no_outcome: 0 };
  records = 0;
  format: VoteFileFormat | undefined;
  private convert: ((record: Record<string, unknown>) => ConvertedRow) | undefined;
  private lastA = '';
  private lastAIndex = -1;

  constructor(
    private readonly path: string,
    private readonly options: RowOptions,
  ) {}

  /** Fixes the format up front (Parquet: from the column names). */
  useFormat(format: VoteFileFormat): void {
    this.format = format;
    this.convert = createRowConverter(format, this.options);
  }

  add(record: unknown, location: string): void {
    this.records += 1;
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      throw new VoteFileError(this.path, location, 'expected a JSON object');
    }
    const fields = record as Record<string, unknown>;
    try {
      if (!this.convert) this.useFormat(detectFormat(Object.keys(fields)));
      const row = this.convert!(fields);
      if (row.skip) {
        this.skipped[row.skip] += 1;
        return;
      }
      const { builder } = this;
      if (row.modelA !== this.lastA) {
        this.lastA = row.modelA;
        this.lastAIndex = builder.modelIndex(row.modelA);
      }
      builder.addIndexed(this.lastAIndex, builder.modelIndex(row.modelB), row.outcome, row.style);
    } catch (error) {
      if (error instanceof VoteRowError) throw new VoteFileError(this.path, location, error.message);
      throw error;
    }
  }
}

async function readJsonText(path: string, gzip: boolean, options: RowOptions): Promise<VoteFileContents> {
  const collector = new VoteCollector(path, options);
  const parser = new FlatJsonParser();
  let container: 'jsonl' | 'json-array' | undefined;
  const onRecord = (unit: 'line' | 'element') => (bytes: Uint8Array, start: number, end: number, ordinal: number) => {
    const location = `${unit} ${ordinal}`;
    let value: unknown;
    try {
      value = parser.parse(bytes, start, end);
    } catch (error) {
      throw new VoteFileError(path, location, `invalid JSON (${(error as Error).message})`);
    }
    collector.add(value, location);
  };
  let splitter: LineSplitter | ArraySplitter | undefined;
  const source = createReadStream(path, { highWaterMark: 1 << 22 });
  const stream = gzip ? source.pipe(createGunzip()) : source;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (!splitter) {
        const first = chunk.findIndex((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
        if (first < 0) continue;
        container = chunk[first] === 0x5b ? 'json-array' : 'jsonl';
        splitter = container === 'json-array' ? new ArraySplitter(onRecord('element')) : new LineSplitter(onRecord('line'));
      }
      splitter.push(chunk);
    }
    splitter?.end();
  } catch (error) {
    source.destroy();
    if (error instanceof VoteFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const detail = code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' ? 'corrupt gzip data' : (error as Error).message;
    throw new VoteFileError(path, undefined, detail);
  }
  return {
    table: collector.builder.finish(),
    format: collector.format ?? 'agora',
    container: container ?? 'jsonl',
    gzip,
    records: collector.records,
    skipped: collector.skipped,
  };
}

async function readParquet(path: string, options: RowOptions): Promise<VoteFileContents> {
  const parquet = await openParquetVotes(path);
  const collector = new VoteCollector(path, options);
  let format: VoteFileFormat;
  try {
    format = detectFormat(parquet.columns);
  } catch (error) {
    throw new VoteFileError(path, undefined, (error as Error).message);
  }
  collector.useFormat(format);
  const columns = [...FORMAT_COLUMNS[format], ...(options.styleFromText ? TEXT_COLUMNS[format] : [])];
  let row = 0;
  for await (const rows of parquet.rows(columns)) {
    for (const record of rows) {
      row += 1;
      collector.add(record, `row ${row}`);
    }
  }
  return {
    table: collector.builder.finish(),
    format,
    container: 'parquet',
    gzip: false,
    records: collector.records,
    skipped: collector.skipped,
  };
}
