import { availableParallelism } from 'node:os';
import { open, stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { concatVoteTables } from '../../domain/ranking/vote-table';
import { parseJsonlRange, type JsonlRangeResult, type JsonlRangeTask } from './jsonl-range';
import type { ReadVoteFileOptions, VoteFileContents } from './vote-file-contents';
import { parseJson } from './record-file';
import { VoteFileError } from './vote-file-error';
import { detectFormat, VoteRowError, type RowOptions, type SkipReason } from '../../domain/ranking/vote-formats';

/**
 * Below this size one thread is faster: with the byte scanner one thread reads about 700 MB/s, and
 * a second one costs its start, a second name table and the merge of the two tables. Measured on
 * 2.5M votes (494 MB) with the prebuilt CLI, 2 cores at load 5–7: one thread 1.48–1.68 s wall,
 * 1.44–1.51 s CPU, 110 MB; two threads 1.33–1.92 s wall, 1.77–1.88 s CPU, 130 MB.
 */
const MIN_PARALLEL_BYTES = 1 << 30;

/**
 * Reads an uncompressed JSON Lines vote file by byte ranges: a large file is cut at line
 * boundaries into one range per core, each worker parses its range, and the parts are
 * concatenated in file order (so the table is the same as a single-threaded read); a small file
 * is one range read on this thread. Returns undefined when its rows carry cross-row state
 * (compar:IA votes are de-duplicated by conversation pair) or it is not JSON Lines, so the
 * caller reads it as a stream.
 */
export async function readJsonlInParallel(
  path: string,
  options: ReadVoteFileOptions,
  rowOptions: RowOptions,
): Promise<VoteFileContents | undefined> {
  const { size } = await stat(path);
  // a small file is one range, read on this thread (still with the byte scanner)
  const threads = size < (options.parallelMinBytes ?? MIN_PARALLEL_BYTES) ? 1 : Math.min(availableParallelism(), 8);
  const head = await readHeadText(path);
  if (head.firstRecord === undefined || head.firstRecord.startsWith('[')) return undefined;
  let format;
  try {
    const first = parseJson(path, head.firstRecord, `line ${head.firstLine}`);
    if (first === null || typeof first !== 'object' || Array.isArray(first)) return undefined;
    format = detectFormat(Object.keys(first));
  } catch (error) {
    if (error instanceof VoteRowError) throw new VoteFileError(path, `line ${head.firstLine}`, error.message);
    throw error;
  }
  if (format === 'comparia') return undefined;
  const boundaries = await lineBoundaries(path, size, threads);
  const tasks = boundaries.slice(0, -1).map((start, index) => ({
    path,
    start,
    end: boundaries[index + 1]!,
    format,
    excludeFlags: rowOptions.excludeFlags,
    styleFromText: rowOptions.countTokens !== undefined,
    styleCounts: options.styleCounts !== false,
  }));
  // this thread parses the first range while the workers start and parse the others
  const parts = await Promise.all(
    tasks.map((task, index) => (index === 0 ? parseJsonlRange(task, rowOptions.countTokens) : runPart(task))),
  );
  let linesBefore = 0;
  for (const part of parts) {
    if (part.error) throw new VoteFileError(path, `line ${linesBefore + part.error.line}`, part.error.detail);
    linesBefore += part.lines!;
  }
  const skipped: Record<SkipReason, number> = { flagged: 0, duplicate: 0, no_outcome: 0 };
  for (const part of parts) for (const reason of Object.keys(skipped) as SkipReason[]) skipped[reason] += part.skipped![reason];
  return {
    table: parts.length === 1 ? parts[0]!.table! : concatVoteTables(parts.map((part) => part.table!)),
    format,
    container: 'jsonl',
    gzip: false,
    records: parts.reduce((sum, part) => sum + part.records!, 0),
    skipped,
  };
}

/** Runs one worker; resolves once it has exited, so its heap is gone before the merge. */
function runPart(task: JsonlRangeTask): Promise<JsonlRangeResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./jsonl-parse-worker.mjs', import.meta.url), {
      workerData: task,
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    let result: JsonlRangeResult | undefined;
    worker.once('message', (message: JsonlRangeResult) => {
      result = message;
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (result) resolve(result);
      else reject(new Error(`vote parsing worker stopped with exit code ${code}`));
    });
  });
}

async function readHeadText(path: string): Promise<{ firstRecord: string | undefined; firstLine: number }> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(1 << 20);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const lines = buffer.subarray(0, bytesRead).toString('utf8').split('\n');
    for (let index = 0; index < lines.length - 1; index++) {
      const line = lines[index]!.trim();
      if (line.length > 0) return { firstRecord: line, firstLine: index + 1 };
    }
    return { firstRecord: undefined, firstLine: 0 };
  } finally {
    await handle.close();
  }
}

/** Byte offsets [0, b1, …, size], each inner one just after a newline. */
async function lineBoundaries(path: string, size: number, parts: number): Promise<number[]> {
  const handle = await open(path, 'r');
  try {
    const boundaries = [0];
    const window = Buffer.alloc(1 << 16);
    for (let part = 1; part < parts; part++) {
      let position = Math.max(Math.floor((size * part) / parts), boundaries[boundaries.length - 1]!);
      for (;;) {
        const { bytesRead } = await handle.read(window, 0, window.length, position);
        if (bytesRead === 0) {
          position = size;
          break;
        }
        const newline = window.subarray(0, bytesRead).indexOf(0x0a);
        if (newline >= 0) {
          position += newline + 1;
          break;
        }
        position += bytesRead;
      }
      boundaries.push(position);
    }
    boundaries.push(size);
    return boundaries;
  } finally {
    await handle.close();
  }
}
