import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { TokenCounter } from '../../domain/ranking/style-features';
import type { VoteTable } from '../../domain/ranking/vote-table';
import { LineBlocks } from './record-splitter';
import { reserveForFile, VoteCollector } from './vote-collector';
import { VoteFileError } from './vote-file-error';
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
  const collector = new VoteCollector(task.path, {
    excludeFlags: task.excludeFlags,
    styleFromText: task.styleFromText,
    countTokens,
  });
  collector.useFormat(task.format);
  const lines = new LineBlocks((text) => collector.addText(text));
  const decoder = new StringDecoder('utf8');
  try {
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
  } catch (error) {
    if (!(error instanceof VoteFileError)) throw error;
    const line = Number(/^line (\d+)$/.exec(error.location ?? '')?.[1] ?? 0);
    return { error: { line, detail: error.detail } };
  }
  return {
    table: collector.builder.finish(),
    records: collector.records,
    skipped: collector.skipped,
    lines: collector.lineCount,
  };
}
