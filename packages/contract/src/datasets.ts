import { z } from 'zod';

/** Rows of one published dataset or subset. */
export const datasetRowsSchema = z.object({ name: z.string(), rows: z.number().int().nonnegative() });

/**
 * The two datasets an export writes, each a folder of its own (`public/`, `gated/`) to publish as one
 * Hugging Face dataset repository: the public one open to anyone, the gated one on request, for research.
 */
export const DATASET_TIER_NAMES = ['public', 'gated'] as const;
export type DatasetTierName = (typeof DATASET_TIER_NAMES)[number];

/** The tiers each dataset is written to: compar:IA's three tables in both, the training subsets in the public one. */
export const DATASET_TIERS_OF = {
  conversations: ['public', 'gated'],
  votes: ['public', 'gated'],
  reactions: ['public', 'gated'],
  dpo: ['public'],
  kto: ['public'],
  reward: ['public'],
} as const satisfies Record<string, readonly DatasetTierName[]>;

/** One tier of an export: the datasets its folder holds (their rows are those of `datasets`). */
export const publishedTierSchema = z.object({ name: z.enum(DATASET_TIER_NAMES), datasets: z.array(z.string()) });
export type PublishedTier = z.infer<typeof publishedTierSchema>;

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
