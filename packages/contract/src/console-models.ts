import { z } from 'zod';
import { typedTextSchema } from './duels';
import { INTERFACE_LOCALES } from './locales';
import { architectureSchema, modelStatusSchema } from './models';

/**
 * The console's models (`/admin/models`, `/api/v1/admin/models*`): the catalogue of models.yaml
 * with the operator's overrides stored in the database, models added without a restart, each
 * model's recent errors and timings, and a test call. The server validates the result again
 * against models.yaml's own entry schema.
 */

const textOf = (max: number) => typedTextSchema.pipe(z.string().trim().min(1).max(max));
const slugSchema = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,99}$/, 'a lowercase slug (a-z, 0-9, . _ -)');
const paramsSchema = z.number().positive().max(100_000);
const pricingSchema = z.strictObject({
  input_per_million_usd: z.number().nonnegative().max(10_000),
  output_per_million_usd: z.number().nonnegative().max(10_000),
});
/** A description per interface language; a language left out has none. */
const descriptionsSchema = z.partialRecord(z.enum(INTERFACE_LOCALES), textOf(2000));

/** The facts of a model the console may change; a field left out keeps what models.yaml says. */
export const modelOverrideRequestSchema = z
  .strictObject({
    status: modelStatusSchema.optional(),
    params_b: paramsSchema.nullable().optional(),
    active_params_b: paramsSchema.nullable().optional(),
    license: textOf(200).optional(),
    license_url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional(),
    pricing: pricingSchema.optional(),
    description: descriptionsSchema.optional(),
  })
  .refine((override) => Object.keys(override).length > 0, 'at least one fact to change');
export type ModelOverrideRequest = z.infer<typeof modelOverrideRequestSchema>;

/** A model of a provider models.yaml configures (`provider` is a key of {@link consoleProviderSchema}), added without a restart. */
export const modelAddRequestSchema = z.strictObject({
  id: slugSchema,
  name: textOf(200),
  organisation: textOf(200),
  license: textOf(200),
  open_weights: z.boolean(),
  arch: architectureSchema,
  params_b: paramsSchema.nullable(),
  active_params_b: paramsSchema.nullable().optional(),
  status: modelStatusSchema.optional(),
  license_url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
  reasoning: z.boolean().optional(),
  release_date: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'YYYY-MM')
    .optional(),
  pricing: pricingSchema.optional(),
  description: descriptionsSchema.optional(),
  provider: z.string().min(1).max(600),
  /** The model name the provider knows (`provider.model` in models.yaml). */
  provider_model: textOf(200),
});
export type ModelAddRequest = z.infer<typeof modelAddRequestSchema>;

export const modelTestRequestSchema = z.strictObject({ prompt: textOf(500).optional() });
export type ModelTestRequest = z.infer<typeof modelTestRequestSchema>;

/** A provider models.yaml configures: where it is and the name of its key variable (never the key). */
export const consoleProviderSchema = z.object({
  key: z.string(),
  type: z.string(),
  base_url: z.string(),
  api_key_env: z.string().nullable(),
  key_set: z.boolean(),
});
export type ConsoleProvider = z.infer<typeof consoleProviderSchema>;

export const modelErrorSchema = z.object({
  kind: z.string(),
  status_code: z.number().nullable(),
  message: z.string(),
  at: z.string(),
});

export const consoleModelSchema = z.object({
  id: z.string(),
  name: z.string(),
  organisation: z.string(),
  /** `yaml` as models.yaml says; `overridden` with facts changed in the console; `added` in the console. */
  origin: z.enum(['yaml', 'overridden', 'added']),
  /** The facts the console changed (for an overridden model). */
  overridden_fields: z.array(z.string()),
  updated_by: z.string().nullable(),
  updated_at: z.string().nullable(),
  status: modelStatusSchema,
  /** Whether a new duel may draw it now, and why not when it cannot (a missing key variable…). */
  drawable: z.boolean(),
  unavailable_reason: z.string().nullable(),
  license: z.string(),
  license_url: z.string().nullable(),
  open_weights: z.boolean(),
  arch: architectureSchema,
  params_b: z.number().nullable(),
  active_params_b: z.number().nullable(),
  pricing: pricingSchema.nullable(),
  /** One text for every language (`*`), or one per language. */
  description: z.record(z.string(), z.string()),
  provider: z.object({ type: z.string(), base_url: z.string().nullable(), model: z.string() }),
  stats: z.object({
    answers: z.number(),
    failed: z.number(),
    error_rate: z.number().nullable(),
    mean_ttft_ms: z.number().nullable(),
    mean_duration_ms: z.number().nullable(),
  }),
  last_errors: z.array(modelErrorSchema),
});
export type ConsoleModel = z.infer<typeof consoleModelSchema>;

export const consoleModelListSchema = z.object({
  models: z.array(consoleModelSchema),
  providers: z.array(consoleProviderSchema),
  /** The answers counted in `stats` are those of turns started since this time. */
  stats_since: z.string(),
});
export type ConsoleModelList = z.infer<typeof consoleModelListSchema>;

/** A test call's outcome: the answer's first characters and its timings, or the error. */
export const modelTestResultSchema = z.object({
  ok: z.boolean(),
  text: z.string(),
  ttft_ms: z.number().nullable(),
  total_ms: z.number(),
  error: z.object({ kind: z.string(), message: z.string() }).nullable(),
});
export type ModelTestResult = z.infer<typeof modelTestResultSchema>;
