import type { Store } from '../db/unit-of-work';
import { loadTokenCounter } from '../adapters/local-token-count';
import { JsonLineReader, readRecordFile } from '../adapters/vote-files/record-file';
import { VoteFileError } from '../adapters/vote-files/vote-file-error';
import { importedDuelId } from '../adapters/comparia-ids';
import { mapComparIaRow } from '../domain/comparia/comparia-rows';
import { mapComparIaArenaRow } from '../domain/comparia/comparia-arena-rows';
import { ComparIaRowError } from '../domain/comparia/comparia-values';
import { applyBatch, type PendingRow } from './comparia-import-batch';
import type { ComparIaImportDataset, ImportedFileSummary } from './comparia-import-summary';

export type { ImportedFileSummary } from './comparia-import-summary';

/** The files of one `agora import comparia` run (a dataset may come in several files: shards). */
export type ComparIaFiles = Partial<Record<ComparIaImportDataset, string | readonly string[]>>;

export interface ImportProgress {
  dataset: ComparIaImportDataset;
  path: string;
  rows: number;
  done: number;
  total: number;
}

export interface ComparIaImportOptions {
  /** Rows per transaction (default 2000). */
  batchSize?: number;
  /**
   * Take compar:IA's own screening as Agora's (`--trust-source`): its conversations are stored as
   * screened, with no personal data. By default they wait for Agora's post-processing (rules and
   * model layer), like the arena's own; compar:IA's languages and topics are kept meanwhile.
   */
  trustSource?: boolean;
  /** Called as the file is read: rows so far, and how far into the file (bytes, or rows of a Parquet file). */
  onProgress?: (progress: ImportProgress) => void;
  now?: () => number;
}

/** Files are imported in this order, so that votes and reactions find their conversations. */
const ORDER: readonly ComparIaImportDataset[] = ['conversations', 'arena', 'votes', 'reactions'];

/**
 * `agora import comparia`: loads compar:IA's public dataset files into the store, idempotently.
 * Each conversation pair is one duel (source `comparia`, external id = `conversation_pair_id`);
 * rows are written in transactions of a few thousand; a bad row stops the import with its file
 * and line, and the batch it was in is not written (earlier batches are, and a second run skips them).
 */
export class ComparIaImportService {
  constructor(private readonly store: Store) {}

  async importFiles(files: ComparIaFiles, options: ComparIaImportOptions = {}): Promise<ImportedFileSummary[]> {
    const summaries: ImportedFileSummary[] = [];
    for (const dataset of ORDER) {
      const paths = files[dataset];
      for (const path of typeof paths === 'string' ? [paths] : (paths ?? [])) summaries.push(await this.importFile(dataset, path, options));
    }
    return summaries;
  }

  private async importFile(dataset: ComparIaImportDataset, path: string, options: ComparIaImportOptions): Promise<ImportedFileSummary> {
    const now = options.now ?? Date.now;
    const started = now();
    const batchSize = options.batchSize ?? 2000;
    const mapping = { countTokens: await loadTokenCounter(), duelIdOf: importedDuelId };
    const summary: ImportedFileSummary = {
      dataset,
      path,
      read: 0,
      inserted: 0,
      updated: 0,
      present: 0,
      skipped: {},
      conversationsCreated: 0,
      seconds: 0,
    };
    let pending: PendingRow[] = [];
    const add = (record: unknown, location: string): void => {
      summary.read += 1;
      if (record === null || typeof record !== 'object' || Array.isArray(record))
        throw new VoteFileError(path, location, 'expected a JSON object');
      try {
        const row = record as Record<string, unknown>;
        pending.push({
          row: dataset === 'arena' ? mapComparIaArenaRow(row, mapping) : mapComparIaRow(dataset, row, mapping),
          location,
        });
      } catch (error) {
        if (error instanceof ComparIaRowError) throw new VoteFileError(path, location, error.message);
        throw error;
      }
    };
    const lines = new JsonLineReader(path, (record, line) => add(record, `line ${line}`));
    const flush = async (): Promise<void> => {
      while (pending.length > 0) {
        const batch = pending.slice(0, batchSize);
        pending = pending.slice(batch.length);
        await this.store.transaction((repositories) => applyBatch(repositories, batch, summary, options.trustSource === true));
      }
    };
    await readRecordFile(
      path,
      {
        addLines: (text) => lines.addLines(text),
        addRecord: add,
        flush: async () => {
          if (pending.length >= batchSize) await flush();
        },
      },
      {
        onProgress:
          options.onProgress && ((done, total) => options.onProgress!({ dataset, path, rows: summary.read - pending.length, done, total })),
      },
    );
    await flush();
    summary.seconds = (now() - started) / 1000;
    return summary;
  }
}
