import { DATASET_TIER_NAMES, DATASET_TIERS_OF, type DatasetTierName } from '@agora/contract';
import { DATASETS, type ComparIaTable, type DatasetColumn, type DatasetName } from './export-columns';

/**
 * The two tiers of an export (docs/decisions/0008), each written to a folder of its own that is one
 * Hugging Face dataset repository: `public/`, open to anyone, and `gated/`, for research on request.
 * Neither folder is inside the other, so uploading one never uploads the other. The same privacy
 * rules decide what reaches either: the tiers differ by what links rows to a person or a moment.
 */
export const DATASET_TIERS = DATASET_TIER_NAMES;
export type DatasetTier = DatasetTierName;

/** The tiers each dataset is written to (the contract's list: the datasets page names them too). */
export const TIERS_OF: Readonly<Record<DatasetName, readonly DatasetTier[]>> = DATASET_TIERS_OF;

/** A tier's folder, relative to the export folder. */
export const tierFolder = (tier: DatasetTier): string => tier;

export const COMPARIA_TABLES: readonly ComparIaTable[] = ['conversations', 'votes', 'reactions'];

export const isComparIaTable = (dataset: DatasetName): dataset is ComparIaTable => (COMPARIA_TABLES as readonly string[]).includes(dataset);

/** compar:IA's columns the public tier leaves out, and why (the public card lists them). */
export const PUBLIC_WITHHELD_COLUMNS: Readonly<Record<string, string>> = {
  visitor_id: "it groups one visitor's conversations, votes and reactions, the grouping that re-identified people in published search logs",
  session_hash: 'it groups the rows of one visit (imported rows): the same grouping, over a shorter time',
};

/** What the public tier's `timestamp` holds: the day only (a column of type `date`). */
const PUBLIC_DAY: Readonly<Record<ComparIaTable, string>> = {
  conversations: 'the day the conversation started (UTC); the time of day is withheld',
  votes: 'the day the vote was cast (UTC); the time of day is withheld',
  reactions: 'the day the reaction was given (UTC); the time of day is withheld',
};

/** Columns the public tier keeps, for compar:IA's notebooks, but always writes null. */
export const PUBLIC_NULL_COLUMNS: Readonly<Record<string, string>> = {
  country:
    "always null: Agora does not collect where visitors are, and an imported row's place is withheld here (a town and a day narrow a person down)",
  city: 'always null, as `country`',
};

const GENERATION_ID_WITHHELD =
  "; `metadata.generation_id` is always null here (a provider's generation id can hold the time of the request, and the provider can look it up)";

function publicColumn(table: ComparIaTable, column: DatasetColumn): DatasetColumn {
  if (column.name === 'timestamp') return { ...column, type: 'date', description: PUBLIC_DAY[table] };
  if (column.type === 'transcript') return { ...column, description: `${column.description}${GENERATION_ID_WITHHELD}` };
  const nulled = PUBLIC_NULL_COLUMNS[column.name];
  return nulled === undefined ? column : { ...column, description: nulled };
}

const PUBLIC_COMPARIA_COLUMNS: Readonly<Record<ComparIaTable, readonly DatasetColumn[]>> = {
  conversations: publicColumnsOf('conversations'),
  votes: publicColumnsOf('votes'),
  reactions: publicColumnsOf('reactions'),
};

function publicColumnsOf(table: ComparIaTable): DatasetColumn[] {
  return DATASETS[table].columns.filter((column) => !(column.name in PUBLIC_WITHHELD_COLUMNS)).map((column) => publicColumn(table, column));
}

/** The columns of a dataset in a tier, in file order: the registry's in the gated tier, fewer and coarser in the public one. */
export function tierColumns(tier: DatasetTier, dataset: DatasetName): readonly DatasetColumn[] {
  return tier === 'public' && isComparIaTable(dataset) ? PUBLIC_COMPARIA_COLUMNS[dataset] : DATASETS[dataset].columns;
}
