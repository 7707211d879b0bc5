import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MaxxCardInput, buildMaxxCard, maxxFilesPath } from '../../domain/maxx/maxx-card';
import type { MaxxItemRecord } from '../../domain/maxx/maxx-outcome';
import { MAXX_SUBSETS, type MaxxSubset } from '../../domain/maxx/maxx-rules';
import { MAXX_COLUMNS } from '../../domain/maxx/maxx-rows';
import { type DatasetFileWriter, Utf8Encodings, jsonlFileWriter, parquetFileWriter } from './dataset-writers';

/** What the card says of a set beyond its outcomes (recorded with the build, so that a later export writes the same card). */
export type MaxxSetDescription = Omit<MaxxCardInput, 'records' | 'emptyBecause'>;

/**
 * The files of an optimised set, from recorded outcomes only: one folder per subset and language
 * with Parquet shards and a JSONL file, and the card. A subset or language without a row has no
 * folder (a config over no file makes `datasets` fail). Folders of an earlier set in `outDir` are replaced.
 */
export function writeMaxxSet(
  records: readonly MaxxItemRecord[],
  description: MaxxSetDescription,
  outDir: string,
  emptyBecause?: string,
): { cardPath: string; rows: Record<MaxxSubset, number> } {
  const rows = Object.fromEntries(MAXX_SUBSETS.map((subset) => [subset, 0])) as Record<MaxxSubset, number>;
  const encodings = new Utf8Encodings();
  mkdirSync(outDir, { recursive: true });
  for (const subset of MAXX_SUBSETS) {
    rmSync(join(outDir, subset), { recursive: true, force: true });
    const kept = records.filter((record) => record.subset === subset && record.status === 'kept' && record.row !== null);
    for (const language of [...new Set(kept.map((record) => record.language))].sort()) {
      const folder = join(outDir, maxxFilesPath(subset, language));
      mkdirSync(folder, { recursive: true });
      const writers: DatasetFileWriter[] = [
        parquetFileWriter(MAXX_COLUMNS, { folder, rowGroupRows: 1000, fileRows: 100_000 }, encodings),
        jsonlFileWriter(join(folder, 'train.jsonl'), MAXX_COLUMNS),
      ];
      for (const record of kept) {
        if (record.language !== language) continue;
        for (const writer of writers) writer.add(record.row!);
        rows[subset] += 1;
      }
      for (const writer of writers) writer.finish();
    }
  }
  const cardPath = join(outDir, 'README.md');
  writeFileSync(cardPath, buildMaxxCard({ ...description, records, emptyBecause }));
  return { cardPath, rows };
}
