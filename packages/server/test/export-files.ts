import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { parse as parseYaml } from 'yaml';
import type { DatasetName } from '../src/domain/datasets/export-columns';
import { type DatasetTier, TIERS_OF, tierFolder } from '../src/domain/datasets/dataset-tiers';

/** The tier a test reads a subset from when it does not say: the gated one for compar:IA's tables (all their columns). */
const tierOf = (dataset: DatasetName): DatasetTier => (TIERS_OF[dataset].includes('gated') ? 'gated' : 'public');

/** Where an export puts a subset of a tier: `<out>/public/<subset>` or `<out>/gated/<subset>` (docs/datasets.md). */
export const subsetFolder = (out: string, dataset: DatasetName, tier: DatasetTier = tierOf(dataset)): string =>
  join(out, tierFolder(tier), dataset);

/** Every file under a folder, recursively, in path order. */
export function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile())
    .sort();
}

/** A subset's files of one format: language folder by language folder (name order), shards in order. */
export const subsetFiles = (out: string, dataset: DatasetName, extension: 'parquet' | 'jsonl', tier?: DatasetTier): string[] =>
  filesUnder(subsetFolder(out, dataset, tier)).filter((path) => path.endsWith(`.${extension}`));

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
export async function subsetRows(out: string, dataset: DatasetName, tier?: DatasetTier): Promise<Record<string, any>[]> {
  return (await Promise.all(subsetFiles(out, dataset, 'parquet', tier).map(readParquetRows))).flat();
}

/** A subset's JSONL rows, in file order. */
export const subsetJsonl = (out: string, dataset: DatasetName, tier?: DatasetTier): Record<string, any>[] =>
  subsetFiles(out, dataset, 'jsonl', tier).flatMap(readJsonl);

/** The YAML header of a dataset card, as the Hugging Face Hub reads it: its configs and their row counts. */
export interface CardHeader {
  license: string;
  language: string[];
  configs: { config_name: string; default?: boolean; data_files: { split: string; path: string }[] }[];
  dataset_info: { config_name: string; splits: { name: string; num_examples: number }[] }[];
  [field: string]: unknown;
}

export function cardHeader(card: string): CardHeader {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(card);
  if (match === null) throw new Error('the card has no YAML header');
  return parseYaml(match[1]!) as CardHeader;
}
