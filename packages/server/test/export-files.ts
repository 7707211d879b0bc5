import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { DATASET_TIER, type DatasetName, tierFolder } from '../src/domain/datasets/export-columns';

/** Where an export puts a subset: the raw tier's in `raw/`, the public tier's at the root (docs/datasets.md). */
export const subsetFolder = (out: string, dataset: DatasetName): string => join(out, tierFolder(DATASET_TIER[dataset]), dataset);

/** Every file under a folder, recursively, in path order. */
export function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile())
    .sort();
}

/** A subset's files of one format: language folder by language folder (name order), shards in order. */
export const subsetFiles = (out: string, dataset: DatasetName, extension: 'parquet' | 'jsonl'): string[] =>
  filesUnder(subsetFolder(out, dataset)).filter((path) => path.endsWith(`.${extension}`));

export async function readParquetRows(path: string): Promise<Record<string, any>[]> {
  return (await parquetReadObjects({
    file: await asyncBufferFromFile(path),
    compressors: { BROTLI: (input) => brotliDecompressSync(input) },
  })) as Record<string, any>[];
}

export const readJsonl = (path: string): Record<string, any>[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, any>);

/** A subset's Parquet rows, in file order. */
export async function subsetRows(out: string, dataset: DatasetName): Promise<Record<string, any>[]> {
  return (await Promise.all(subsetFiles(out, dataset, 'parquet').map(readParquetRows))).flat();
}

/** A subset's JSONL rows, in file order. */
export const subsetJsonl = (out: string, dataset: DatasetName): Record<string, any>[] =>
  subsetFiles(out, dataset, 'jsonl').flatMap(readJsonl);
