import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { ArraySplitter, LineBlocks } from './record-splitter';
import { VoteFileError } from './vote-file-error';

/**
 * The file layer shared by every reader of dataset files (vote files for the ranking, compar:IA
 * dataset files for `agora import comparia`): JSON Lines or a JSON array, optionally gzipped, or
 * Parquet, streamed record by record. Errors name the file and the line, element or row.
 */

/** Where the records of a file go. */
export interface RecordSink {
  /** Whole lines of JSON Lines text (the sink parses them, e.g. with {@link JsonLineReader}). */
  addLines(text: string): void;
  /** One record of a JSON array ("element 3") or a Parquet file ("row 7"). */
  addRecord(record: unknown, location: string): void;
  /** Awaited after each chunk of input: back-pressure for a sink that writes somewhere. */
  flush?(): Promise<void>;
}

export interface RecordFileOptions {
  /** The columns to decode from a Parquet file, given its column names (default: all). */
  parquetColumns?(available: readonly string[]): readonly string[];
  /** The first chunk of an uncompressed JSON file and the file's size (to reserve room). */
  onFirstChunk?(chunk: Uint8Array, size: number): void;
  /** How far the read is, after each chunk: bytes of the file (JSON, gzipped or not) or rows (Parquet). */
  onProgress?(done: number, total: number): void;
}

/** How the file was stored. */
export interface RecordFileShape {
  container: 'jsonl' | 'json-array' | 'parquet';
  gzip: boolean;
}

const GZIP_MAGIC = [0x1f, 0x8b];
const PARQUET_MAGIC = [0x50, 0x41, 0x52, 0x31];

export const isGzip = (head: Uint8Array): boolean => startsWith(head, GZIP_MAGIC);
export const isParquet = (head: Uint8Array): boolean => startsWith(head, PARQUET_MAGIC);

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((byte, index) => bytes[index] === byte);
}

/** The first megabyte of the file (magic numbers, and a look at the first rows). */
export async function readFileHead(path: string): Promise<Uint8Array> {
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

/** Streams every record of the file into `sink`, detecting the container from the bytes. */
export async function readRecordFile(path: string, sink: RecordSink, options: RecordFileOptions = {}): Promise<RecordFileShape> {
  const head = await readFileHead(path);
  if (isParquet(head)) {
    await readParquetRecords(path, sink, options);
    return { container: 'parquet', gzip: false };
  }
  const gzip = isGzip(head);
  return { container: await readJsonRecords(path, gzip, sink, options), gzip };
}

async function readJsonRecords(
  path: string,
  gzip: boolean,
  sink: RecordSink,
  options: RecordFileOptions,
): Promise<RecordFileShape['container']> {
  const decoder = new StringDecoder('utf8');
  let container: RecordFileShape['container'] | undefined;
  let lines: LineBlocks | undefined;
  let elements: ArraySplitter | undefined;
  const source = createReadStream(path, { highWaterMark: 1 << 22 });
  const stream = gzip ? source.pipe(createGunzip()) : source;
  const size = options.onProgress ? (await stat(path)).size : 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (container === undefined && !gzip && options.onFirstChunk) options.onFirstChunk(chunk, (await stat(path)).size);
      if (container === undefined) {
        const first = chunk.findIndex((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
        if (first < 0) continue;
        container = chunk[first] === 0x5b ? 'json-array' : 'jsonl';
        if (container === 'jsonl') {
          lines = new LineBlocks((text) => sink.addLines(text));
        } else {
          elements = new ArraySplitter((bytes, start, end, number) => {
            const location = `element ${number}`;
            const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
            sink.addRecord(parseJson(path, text, location), location);
          });
        }
      }
      if (lines) lines.push(decoder.write(chunk));
      else splitting(path, () => elements!.push(chunk));
      if (sink.flush) await sink.flush();
      options.onProgress?.(Math.min(source.bytesRead, size), size);
    }
    if (lines) {
      lines.push(decoder.end());
      lines.end();
    }
    const splitter = elements;
    if (splitter) splitting(path, () => splitter.end());
    if (sink.flush) await sink.flush();
  } catch (error) {
    source.destroy();
    const code = (error as NodeJS.ErrnoException).code;
    // read and gunzip failures; anything the sink throws goes up as it is
    if (error instanceof VoteFileError || code === undefined) throw error;
    const detail = code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' ? 'corrupt gzip data' : (error as Error).message;
    throw new VoteFileError(path, undefined, detail);
  }
  return container ?? 'jsonl';
}

/** Runs a step of the JSON array splitter; its syntax errors name the file. */
function splitting(path: string, step: () => void): void {
  try {
    step();
  } catch (error) {
    if (error instanceof VoteFileError || (error as NodeJS.ErrnoException).code !== undefined) throw error;
    if (error instanceof Error && error.constructor === Error) throw new VoteFileError(path, undefined, error.message);
    throw error;
  }
}

async function readParquetRecords(path: string, sink: RecordSink, options: RecordFileOptions): Promise<void> {
  // the Parquet reader and its codecs (about 300 kB of JavaScript) only for a Parquet file
  const { openParquetFile } = await import('./parquet-records');
  const parquet = await openParquetFile(path);
  const columns = options.parquetColumns ? options.parquetColumns(parquet.columns) : parquet.columns;
  let row = 0;
  for await (const rows of parquet.rows(columns)) {
    for (const record of rows) {
      row += 1;
      sink.addRecord(record, `row ${row}`);
      // a row group can be a whole file: let the sink write as it goes
      if (sink.flush && row % 1024 === 0) {
        await sink.flush();
        options.onProgress?.(row, parquet.rowCount);
      }
    }
    if (sink.flush) await sink.flush();
    options.onProgress?.(row, parquet.rowCount);
  }
}

/**
 * Parses blocks of whole JSON Lines, one record per non-blank line. Blank lines are skipped but
 * counted, so error messages give the file's line numbers. (`JSON.parse` per line measured faster
 * than hand-written or regex field extraction: V8 builds these small objects in C++.)
 */
export class JsonLineReader {
  /** Lines seen so far, blank ones included. */
  lineCount = 0;

  constructor(
    private readonly path: string,
    private readonly onRecord: (record: unknown, line: number) => void,
  ) {}

  addLines(text: string): void {
    let position = 0;
    while (position < text.length) {
      this.lineCount += 1;
      let newline = text.indexOf('\n', position);
      if (newline < 0) newline = text.length;
      const line = text.slice(position, newline);
      position = newline + 1;
      const first = line.charCodeAt(0);
      if (first !== 0x7b && line.trim().length === 0) continue;
      this.onRecord(parseJson(this.path, line, `line ${this.lineCount}`), this.lineCount);
    }
  }
}

/** JSON.parse with the file and line in the error. */
export function parseJson(path: string, text: string, location: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new VoteFileError(path, location, `invalid JSON (${(error as Error).message})`);
  }
}
