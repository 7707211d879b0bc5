import { z } from 'zod';

/** Rows of one published dataset or subset. */
export const datasetRowsSchema = z.object({ name: z.string(), rows: z.number().int().nonnegative() });

/** The last `agora export`: what it published, as its card counts it. */
export const publishedExportSchema = z.object({
  built_at: z.string(),
  conversations: z.number().int().nonnegative(),
  formats: z.array(z.string()),
  /** The licence the card declares for the data (Hugging Face id). */
  license: z.string(),
  datasets: z.array(datasetRowsSchema),
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
