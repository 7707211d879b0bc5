import { isGzip, isParquet, readFileHead, readRecordFile } from './record-file';
import { loadCl100kTokenCounter } from './token-counter';
import { VoteFileError } from './vote-file-error';
import { readJsonlInParallel } from './parallel-jsonl';
import type { ReadVoteFileOptions, VoteFileContents } from './vote-file-contents';
import { reserveForFile, VoteCollector } from './vote-collector';
import { detectFormat, FORMAT_COLUMNS, TEXT_COLUMNS, type RowOptions, type VoteFileFormat } from '../../domain/ranking/vote-formats';

/**
 * Reads a vote file into a `VoteTable`: JSON Lines or a JSON array, optionally gzipped, or
 * Parquet. The row format (Agora/fixture, FastChat battles, compar:IA votes) is detected from the
 * first row. A row that cannot be a vote (unknown winner, missing model, bad count) stops the
 * read with a {@link VoteFileError} naming the file and line; it is never silently counted as ½.
 */
export async function readVoteFile(path: string, options: ReadVoteFileOptions = {}): Promise<VoteFileContents> {
  const head = await readFileHead(path);
  const parquet = isParquet(head);
  const gzip = isGzip(head);
  // The tokenizer takes a while to load: only when rows may carry conversation text.
  const mayNeedText = options.styleFromText === true && (parquet || gzip || new TextDecoder().decode(head).includes('"conversation_'));
  const rowOptions: RowOptions = {
    excludeFlags: options.excludeFlags,
    styleFromText: options.styleFromText,
    countTokens: mayNeedText ? await loadCl100kTokenCounter() : undefined,
  };
  const styleCounts = options.styleCounts !== false;
  if (parquet) return readParquet(path, rowOptions, styleCounts);
  if (!gzip && options.parallel !== false) {
    const parallel = await readJsonlInParallel(path, options, rowOptions);
    if (parallel) return parallel;
  }
  return readJsonText(path, gzip, rowOptions, styleCounts);
}

async function readJsonText(path: string, gzip: boolean, options: RowOptions, styleCounts: boolean): Promise<VoteFileContents> {
  const collector = new VoteCollector(path, options, styleCounts);
  const shape = await readRecordFile(
    path,
    { addLines: (text) => collector.addText(text), addRecord: (record, location) => collector.add(record, location) },
    { onFirstChunk: (chunk, size) => reserveForFile(collector, chunk, size) },
  );
  return {
    table: collector.builder.finish(),
    format: collector.format ?? 'agora',
    container: shape.container,
    gzip,
    records: collector.records,
    skipped: collector.skipped,
  };
}

async function readParquet(path: string, options: RowOptions, styleCounts: boolean): Promise<VoteFileContents> {
  const collector = new VoteCollector(path, options, styleCounts);
  let format: VoteFileFormat | undefined;
  await readRecordFile(
    path,
    { addLines: () => undefined, addRecord: (record, location) => collector.add(record, location) },
    {
      parquetColumns: (available) => {
        try {
          format = detectFormat(available);
        } catch (error) {
          throw new VoteFileError(path, undefined, (error as Error).message);
        }
        collector.useFormat(format);
        return [...FORMAT_COLUMNS[format], ...(options.styleFromText ? TEXT_COLUMNS[format] : [])];
      },
    },
  );
  return {
    table: collector.builder.finish(),
    format: format!,
    container: 'parquet',
    gzip: false,
    records: collector.records,
    skipped: collector.skipped,
  };
}
