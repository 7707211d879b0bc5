import { z } from 'zod';

/** Rows of one published dataset or subset. */
export const datasetRowsSchema = z.object({ name: z.string(), rows: z.number().int().nonnegative() });

/**
 * The two datasets an export writes, each a folder of its own (`public/`, `gated/`) to publish as one
 * Hugging Face dataset repository: the public one open to anyone, the gated one on request, for research.
 */
export const DATASET_TIER_NAMES = ['public', 'gated'] as const;
export type DatasetTierName = (typeof DATASET_TIER_NAMES)[number];

/** The tiers each dataset is written to: compar:IA's three tables in both, the training subsets and the turn verdicts (days only, no visitor id) in the public one. */
export const DATASET_TIERS_OF = {
  conversations: ['public', 'gated'],
  votes: ['public', 'gated'],
  reactions: ['public', 'gated'],
  dpo: ['public'],
  kto: ['public'],
  reward: ['public'],
  turn_verdicts: ['public'],
  dpo_turns: ['public'],
} as const satisfies Record<string, readonly DatasetTierName[]>;

/** One tier of an export: the datasets its folder holds (their rows are those of `datasets`). */
export const publishedTierSchema = z.object({ name: z.enum(DATASET_TIER_NAMES), datasets: z.array(z.string()) });
export type PublishedTier = z.infer<typeof publishedTierSchema>;

/** One data file of an export's public folder. */
export const publishedFileSchema = z.object({
  dataset: z.string(),
  language: z.string(),
  format: z.string(),
  /** Path inside the public folder, `<dataset>/<language>/<file>`. */
  path: z.string(),
  rows: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** `/api/v1/datasets/<id>/files/<path>` when this server holds the file; null otherwise. */
  url: z.string().nullable(),
});
export type PublishedFile = z.infer<typeof publishedFileSchema>;

/** The last `agora export`: what it published, as its cards count it. */
export const publishedExportSchema = z.object({
  built_at: z.string(),
  conversations: z.number().int().nonnegative(),
  formats: z.array(z.string()),
  /** The licence the card declares for the data (Hugging Face id). */
  license: z.string(),
  /** Rows of each dataset: a dataset in both tiers has the same rows in each (the public one with fewer columns). */
  datasets: z.array(datasetRowsSchema),
  tiers: z.array(publishedTierSchema),
  languages: z.array(z.object({ language: z.string(), conversations: z.number().int().nonnegative() })),
  /** The export's id: downloads name it, so that a file of one export is never served as another's. */
  id: z.string(),
  /** The public folder's data files (never the gated ones), each with its download path when this server holds the files. */
  files: z.array(publishedFileSchema),
  /** The first rows of each public dataset as published (texts cut to 240 characters). */
  preview: z.array(z.object({ dataset: z.string(), rows: z.array(z.record(z.string(), z.unknown())) })),
  /** The Hugging Face Hub repositories the operator published the two folders to, when configured. */
  hub: z.object({ public: z.string().nullable(), gated: z.string().nullable() }),
});
export type PublishedExport = z.infer<typeof publishedExportSchema>;

/** The last optimised preference set (`agora maxx --out`). */
export const publishedOptimisedSetSchema = z.object({
  built_at: z.string(),
  subsets: z.array(datasetRowsSchema),
  languages: z.array(z.object({ language: z.string(), rows: z.number().int().nonnegative() })),
  /** The catalogue model of each role (generator, reviewer, critic, judge, stylist). */
  models: z.record(z.string(), z.string()),
  /** The judge's agreement with the visitors when the set was built with `--calibrate`. */
  judge_agreement: z
    .object({ pairs: z.number().int(), rate: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable() })
    .nullable(),
});
export type PublishedOptimisedSet = z.infer<typeof publishedOptimisedSetSchema>;

/** `GET /api/v1/datasets`: what this arena has published, for the datasets page. Null: never built. */
export const publishedDatasetsSchema = z.object({
  export: publishedExportSchema.nullable(),
  optimised: publishedOptimisedSetSchema.nullable(),
});
export type PublishedDatasets = z.infer<typeof publishedDatasetsSchema>;
