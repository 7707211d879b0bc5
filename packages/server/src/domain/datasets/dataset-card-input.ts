import type { ExclusionCounts } from './exportable';
import type { DatasetFormat, DatasetName } from './export-columns';
import type { ExportFilters } from './export-filters';
import type { TrainingUse } from './training-use';
import type { DatasetTier } from './dataset-tiers';

// What a dataset card is written from, in a module of its own: the card (dataset-card.ts) and its
// prose (dataset-card-text.ts) both read it, and the card imports the prose, not the other way.

/** What the export hands the card: its files, what it left out, and the counts the card reports. */
export interface DatasetCardInput {
  /** Every file of the export, both tiers (paths absolute or relative to the process, under `outDir`). */
  files: readonly { tier: DatasetTier; dataset: DatasetName; language: string; format: DatasetFormat; path: string; rows: number }[];
  outDir: string;
  exclusions: ExclusionCounts;
  /** Main language of each exported conversation → count. */
  languages: ReadonlyMap<string, number>;
  /** Model layer of the screening of each exported conversation this arena screened → count. */
  modelLayer: ReadonlyMap<string, number>;
  /** `arena` or the imported dataset of each exported conversation → count. */
  sources: ReadonlyMap<string, number>;
  /** Imported dataset → exported conversations whose screening was taken from it (`--trust-source`). */
  trustedFromSource: ReadonlyMap<string, number>;
  request: ExportFilters;
  /** The optimised preference set written into `optimised/` beside the tiers, by subset. */
  optimisedRows?: Readonly<Record<string, number>> | undefined;
  /** Rows of a public subset and language shuffled together (docs/decisions/0008). */
  shuffleRows: number;
  privateCohortCount: number;
  exportedAt: string;
  /** The catalogue's models with their licence and what their answers may be used for. */
  models: readonly { id: string; license: string; openWeights: boolean; trainingUse: TrainingUse }[];
}

/** A subset's file sets: all languages, then one per language that has rows. */
export interface SubsetConfigs {
  dataset: DatasetName;
  format: DatasetFormat;
  rows: number;
  /** Glob of every language's files, relative to the tier's folder. */
  path: string;
  languages: { language: string; rows: number; path: string }[];
}
