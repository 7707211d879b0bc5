import { z } from 'zod';

export const architectureSchema = z.enum(['dense', 'moe', 'matformer', 'unknown']);
export type Architecture = z.infer<typeof architectureSchema>;

export const modelStatusSchema = z.enum(['enabled', 'archived', 'disabled']);
export type ModelStatus = z.infer<typeof modelStatusSchema>;

/** Public facts about a model: what the catalogue page and the reveal show. No provider settings. */
export const modelCardSchema = z.object({
  id: z.string(),
  name: z.string(),
  organisation: z.string(),
  license: z.string(),
  open_weights: z.boolean(),
  arch: architectureSchema,
  params_b: z.number().nullable(),
  active_params_b: z.number().nullable(),
  reasoning: z.boolean(),
  release_date: z.string().nullable(),
  status: modelStatusSchema,
  /** False when the model is enabled in the catalogue but cannot be drawn (its key is not set). */
  available: z.boolean(),
});
export type ModelCard = z.infer<typeof modelCardSchema>;

export const modelListSchema = z.object({
  models: z.array(modelCardSchema),
  /** Operator guidance when fewer than two models can be drawn (e.g. which key variables to set). */
  setup_hint: z.string().optional(),
  demo: z.boolean(),
});
export type ModelList = z.infer<typeof modelListSchema>;
