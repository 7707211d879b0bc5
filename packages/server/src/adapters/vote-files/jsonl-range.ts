import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { DEFAULT_EXCLUDED_FLAGS } from '../../domain/ranking/arena-matches';
import { StringDecoder } from 'node:string_decoder';
import type { TokenCounter } from '../../domain/ranking/style-features';
import type { VoteTable } from '../../domain/ranking/vote-table';
import { LineBlocks } from './record-splitter';
import { reserveForFile, VoteCollector } from './vote-collector';
import { VoteFileError } from './vote-file-error';
import { VoteLineScanner } from './vote-line-scanner';
import type { SkipReason, VoteFileFormat } from '../../domain/ranking/vote-formats';

/** One byte range of a JSON Lines vote file, cut at line boundaries. */
export interface JsonlRangeTask {
  path: string;
  start: number;
  /** Exclusive. */
  end: number;
  format: VoteFileFormat;
  excludeFlags: readonly string[] | undefined;
  styleFromText: boolean;
  /** Keep the style counts (ReadVoteFileOptions.styleCounts). */
  styleCounts: boolean;
}

/** What parsing a range gave: its votes, or the first bad line (numbered within the range). */
export interface JsonlRangeResult {
  table?: VoteTable;
  records?: number;
  skipped?: Record<SkipReason, number>;
  /** Lines in the range, blank ones included. */
  lines?: number;
  error?: { line: number; detail: string };
}

/** Parses one range of a JSON Lines vote file (on the calling thread). */
export async function parseJsonlRange(task: JsonlRangeTask, countTokens: TokenCounter | undefined): Promise<JsonlRangeResult> {
  const collector = new VoteCollector(
    task.path,
    { excludeFlags: task.excludeFlags, styleFromText: task.styleFromText, countTokens },
    task.styleCounts,
  );
  collector.useFormat(task.format);
  // Agora rows (and the fixtures) carry their fields flat: read them from the bytes
  const scanner =
    task.format === 'agora' ? new VoteLineScanner(task.path, collector, new Set(task.excludeFlags ?? DEFAULT_EXCLUDED_FLAGS)) : undefined;
  try {
    if (scanner) await scanRange(task, scanner, collector);
    else await decodeRange(task, collector);
  } catch (error) {
    if (!(error instanceof VoteFileError)) throw error;
    const line = Number(/^line (\d+)$/.exec(error.location ?? '')?.[1] ?? 0);
    return { error: { line, detail: error.detail } };
  }
  return {
    table: collector.builder.finish(),
    records: collector.records,
    skipped: collector.skipped,
    lines: scanner ? scanner.lineCount : collector.lineCount,
  };
}

/**
 * Reads the range in large blocks of whole lines and hands them to the byte scanner. Two buffers:
 * the next block is read (on libuv's thread pool) while this one is scanned, so the reads' copies
 * from the page cache overlap the scan instead of adding to its wall time.
 */
async function scanRange(task: JsonlRangeTask, scanner: VoteLineScanner, collector: VoteCollector): Promise<void> {
  if (task.end <= task.start) return;
  const handle = await open(task.path, 'r');
  const readAt = (buffer: Buffer, offset: number, position: number): Promise<number> =>
    position < task.end
      ? handle.read(buffer, offset, Math.min(buffer.length - offset, task.end - position), position).then((read) => read.bytesRead)
      : Promise.resolve(0);
  let current = Buffer.allocUnsafe(Math.min(1 << 22, task.end - task.start));
  let spare = Buffer.allocUnsafe(0);
  let kept = 0;
  let position = task.start;
  let pending = readAt(current, 0, position);
  try {
    for (let first = true; ; first = false) {
      const bytesRead = await pending;
      if (bytesRead === 0) break;
      if (first) reserveForFile(collector, current.subarray(0, bytesRead), task.end - task.start);
      position += bytesRead;
      const filled = kept + bytesRead;
      const last = position < task.end ? current.lastIndexOf(0x0a, filled - 1) : filled - 1;
      if (last < 0) {
        // a line longer than the buffer: read on into a larger one
        if (filled === current.length) current = Buffer.concat([current, Buffer.allocUnsafe(current.length)]);
        kept = filled;
        pending = readAt(current, kept, position);
        continue;
      }
      // the last, partial line starts the other buffer, whose read begins before this scan
      kept = filled - last - 1;
      if (spare.length < current.length) spare = Buffer.allocUnsafe(current.length);
      current.copy(spare, 0, last + 1, filled);
      pending = readAt(spare, kept, position);
      scanner.scan(current, 0, last + 1);
      [current, spare] = [spare, current];
    }
    if (kept > 0) scanner.scan(current, 0, kept);
  } finally {
    // a scan error leaves a read in flight: it ends before the file is closed
    await pending.catch(() => 0);
    await handle.close();
  }
}

/** Decodes the range to text and parses it line by line (FastChat rows, style from text). */
async function decodeRange(task: JsonlRangeTask, collector: VoteCollector): Promise<void> {
  const lines = new LineBlocks((text) => collector.addText(text));
  const decoder = new StringDecoder('utf8');
  if (task.end > task.start) {
    let first = true;
    const chunks = createReadStream(task.path, { start: task.start, end: task.end - 1, highWaterMark: 1 << 22 });
    for await (const chunk of chunks as AsyncIterable<Buffer>) {
      if (first) reserveForFile(collector, chunk, task.end - task.start);
      first = false;
      lines.push(decoder.write(chunk));
    }
  }
  lines.push(decoder.end());
  lines.end();
}
