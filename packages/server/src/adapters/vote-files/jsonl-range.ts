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

/** Reads the range in large blocks of whole lines and hands them to the byte scanner. */
async function scanRange(task: JsonlRangeTask, scanner: VoteLineScanner, collector: VoteCollector): Promise<void> {
  if (task.end <= task.start) return;
  const handle = await open(task.path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(Math.min(1 << 22, task.end - task.start));
    let kept = 0;
    let position = task.start;
    let first = true;
    while (position < task.end) {
      if (kept === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
      const { bytesRead } = await handle.read(buffer, kept, Math.min(buffer.length - kept, task.end - position), position);
      if (bytesRead === 0) break;
      if (first) reserveForFile(collector, buffer.subarray(0, bytesRead), task.end - task.start);
      first = false;
      position += bytesRead;
      const filled = kept + bytesRead;
      const last = position < task.end ? buffer.lastIndexOf(0x0a, filled - 1) : filled - 1;
      if (last < 0) {
        kept = filled;
        continue;
      }
      scanner.scan(buffer, 0, last + 1);
      buffer.copy(buffer, 0, last + 1, filled);
      kept = filled - last - 1;
    }
    if (kept > 0) scanner.scan(buffer, 0, kept);
  } finally {
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
