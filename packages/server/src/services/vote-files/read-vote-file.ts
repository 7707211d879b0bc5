import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import type { VoteTable } from '../../domain/ranking';
import { openParquetVotes } from './parquet-records';
import { ArraySplitter, LineBlocks } from './record-splitter';
import { loadCl100kTokenCounter } from './token-counter';
import { VoteFileError } from './vote-file-error';
import { readJsonlInParallel } from './parallel-jsonl';
import { parseJson, reserveForFile, VoteCollector } from './vote-collector';
import {
  detectFormat,
  FORMAT_COLUMNS,
  TEXT_COLUMNS,
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
  /**
   * Parse large uncompressed JSON Lines files on several threads (default true; only files above
   * 64 MB whose rows carry no cross-row state, i.e. not compar:IA votes).
   */
  parallel?: boolean | undefined;
  /** Smallest file parsed in parallel, in bytes (default 64 MB; tests lower it). */
  parallelMinBytes?: number | undefined;
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
  const parquet = startsWith(head, PARQUET_MAGIC);
  const gzip = startsWith(head, GZIP_MAGIC);
  // The tokenizer takes a while to load: only when rows may carry conversation text.
  const mayNeedText =
    options.styleFromText === true && (parquet || gzip || new TextDecoder().decode(head).includes('"conversation_'));
  const rowOptions: RowOptions = {
    excludeFlags: options.excludeFlags,
    styleFromText: options.styleFromText,
    countTokens: mayNeedText ? await loadCl100kTokenCounter() : undefined,
  };
  if (parquet) return readParquet(path, rowOptions);
  if (!gzip && options.parallel !== false) {
    const parallel = await readJsonlInParallel(path, options, rowOptions);
    if (parallel) return parallel;
  }
  return readJsonText(path, gzip, rowOptions);
}

/** The first megabyte of the file (magic numbers, and a look at the first rows). */
async function readHead(path: string): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new VoteFileError(path, undefined, `cannot open (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    const head = new Uint8Array(1 << 20);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((byte, index) => bytes[index] === byte);
}

async function readJsonText(path: string, gzip: boolean, options: RowOptions): Promise<VoteFileContents> {
  const collector = new VoteCollector(path, options);
  const decoder = new StringDecoder('utf8');
  let container: 'jsonl' | 'json-array' | undefined;
  let lines: LineBlocks | undefined;
  let elements: ArraySplitter | undefined;
  const source = createReadStream(path, { highWaterMark: 1 << 22 });
  const stream = gzip ? source.pipe(createGunzip()) : source;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (container === undefined && !gzip) reserveForFile(collector, chunk, (await stat(path)).size);
      if (container === undefined) {
        const first = chunk.findIndex((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
        if (first < 0) continue;
        container = chunk[first] === 0x5b ? 'json-array' : 'jsonl';
        if (container === 'jsonl') {
          lines = new LineBlocks((text) => collector.addText(text));
        } else {
          elements = new ArraySplitter((bytes, start, end, number) => {
            const location = `element ${number}`;
            const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
            collector.add(parseJson(path, text, location), location);
          });
        }
      }
      if (lines) lines.push(decoder.write(chunk));
      else elements!.push(chunk);
    }
    if (lines) {
      lines.push(decoder.end());
      lines.end();
    }
    elements?.end();
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
