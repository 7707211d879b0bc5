/**
 * Worker thread of {@link readJsonlInParallel}: parses one byte range of a JSON Lines vote file
 * and posts back its vote table (typed arrays transferred, not copied).
 */
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { parentPort, workerData } from 'node:worker_threads';
import { LineBlocks } from './record-splitter';
import { loadCl100kTokenCounter } from './token-counter';
import { reserveForFile, VoteCollector } from './vote-collector';
import { VoteFileError } from './vote-file-error';
import type { VoteFileFormat } from './vote-formats';

/** What the main thread sends. */
export interface JsonlRangeTask {
  path: string;
  start: number;
  /** Exclusive. */
  end: number;
  format: VoteFileFormat;
  excludeFlags: readonly string[] | undefined;
  styleFromText: boolean;
}

async function parseRange(task: JsonlRangeTask): Promise<void> {
  const countTokens = task.styleFromText ? await loadCl100kTokenCounter() : undefined;
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
      for await (const chunk of createReadStream(task.path, { start: task.start, end: task.end - 1, highWaterMark: 1 << 22 })) {
        if (first) reserveForFile(collector, chunk as Buffer, task.end - task.start);
        first = false;
        lines.push(decoder.write(chunk as Buffer));
      }
    }
    lines.push(decoder.end());
    lines.end();
  } catch (error) {
    if (!(error instanceof VoteFileError)) throw error;
    const line = Number(/^line (\d+)$/.exec(error.location ?? '')?.[1] ?? 0);
    parentPort!.postMessage({ error: { line, detail: error.detail } });
    return;
  }
  const table = collector.builder.finish();
  const buffers = [table.modelA.buffer, table.modelB.buffer, table.outcome.buffer];
  if (table.style) buffers.push(table.style.buffer);
  parentPort!.postMessage(
    { table, records: collector.records, skipped: collector.skipped, lines: collector.lineCount },
    buffers as ArrayBuffer[],
  );
}

await parseRange(workerData as JsonlRangeTask);
