import type { ComparIaTable } from '../domain/datasets/export-columns';

// The words of `agora import comparia` that both the service (reading the files) and the batch
// writer (comparia-import-batch.ts) speak, in a module of their own so that neither imports the
// other back; the service re-exports the summary for its callers.

/** What a file holds: one of compar:IA's three open tables, or its per-response arena data (`comparia-fr-arena`). */
export type ComparIaImportDataset = ComparIaTable | 'arena';

/** What importing one file did, row by row. */
export interface ImportedFileSummary {
  dataset: ComparIaImportDataset;
  path: string;
  read: number;
  inserted: number;
  /** Rows already stored with other values, rewritten from the file. */
  updated: number;
  /** Rows already stored exactly so: left alone. */
  present: number;
  skipped: Record<string, number>;
  /** Conversations created from vote or reaction rows (their conversations file was not given, or lacks them). */
  conversationsCreated: number;
  seconds: number;
}
