import { z } from 'zod';

export const architectureSchema = z.enum(['dense', 'moe', 'matformer', 'unknown']);
export type Architecture = z.infer<typeof architectureSchema>;

/**
 * What a licence lets people do, as the web app names it in the visitor's language: `permissive`
 * (open weights under a licence without conditions on use, e.g. Apache 2.0, MIT), `conditions` (open
 * weights under a licence with its own conditions, e.g. a community licence), `proprietary` (no weights),
 * `unknown` (a model no longer in the catalogue, named by an old duel).
 */
export const licenseKindSchema = z.enum(['permissive', 'conditions', 'proprietary', 'unknown']);
export type LicenseKind = z.infer<typeof licenseKindSchema>;

export const modelStatusSchema = z.enum(['enabled', 'archived', 'disabled']);
export type ModelStatus = z.infer<typeof modelStatusSchema>;

/** Public facts about a model: what the catalogue page and the reveal show. No provider settings. */
export const modelCardSchema = z.object({
  id: z.string(),
  name: z.string(),
  organisation: z.string(),
  /** The licence's name as its maker writes it (a proper noun: `Apache 2.0`, `Llama 3.1 Community`, `Proprietary`). */
  license: z.string(),
  license_kind: licenseKindSchema,
  open_weights: z.boolean(),
  arch: architectureSchema,
  params_b: z.number().nullable(),
  active_params_b: z.number().nullable(),
  reasoning: z.boolean(),
  release_date: z.string().nullable(),
  status: modelStatusSchema,
  /** False when the model is enabled in the catalogue but cannot be drawn (its key is not set). */
  available: z.boolean(),
  /** The parameter counts are the operator's estimate (the maker does not publish them). */
  params_estimated: z.boolean().optional(),
  /** A few sentences from the operator about the model: the English text, else the first one the catalogue gives. */
  description: z.string().optional(),
  /** The description in each language the catalogue gives it in (`{fr: …, en: …}`); the web app shows the visitor's, else English, else `description`. */
  descriptions: z.record(z.string(), z.string()).optional(),
  /** Where the licence and its reuse conditions are written. */
  license_url: z.string().optional(),
  /** What the provider charges, in US dollars per million tokens. */
  pricing: z.object({ input_per_million_usd: z.number(), output_per_million_usd: z.number() }).optional(),
  /** The model runs on the arena's own machine (llama.cpp), not at a vendor. */
  runs_locally: z.boolean().optional(),
  /** A local model's quantisation, as llama.cpp names it (`Q4_K_M`, `F16`…). */
  quantization_label: z.string().optional(),
});
export type ModelCard = z.infer<typeof modelCardSchema>;

export const modelListSchema = z.object({
  models: z.array(modelCardSchema),
  /** Operator guidance when fewer than two models can be drawn (e.g. which key variables to set), in English for logs and scripts. */
  setup_hint: z.string().optional(),
  /** The same guidance as data, for the web app to word in the visitor's language: the key variables that would make models drawable. */
  setup: z.object({ missing_keys: z.array(z.string()) }).optional(),
  demo: z.boolean(),
  /** The operator's limits, so that the web app says them before the server refuses. */
  limits: z.object({ max_prompt_chars: z.number().int().positive(), max_turns: z.number().int().positive() }),
});
export type ModelList = z.infer<typeof modelListSchema>;

/** The pages whose text the operator sets in files (docs/operations.md#site-pages). */
export const sitePageNameSchema = z.enum(['methodology', 'terms', 'privacy', 'legal', 'accessibility']);
export type SitePageName = z.infer<typeof sitePageNameSchema>;

/** `GET /api/v1/pages/{name}?locale=xx`: a page's Markdown, in the asked language or the nearest one the operator wrote. */
export const sitePageSchema = z.object({ name: sitePageNameSchema, locale: z.string(), markdown: z.string() });
export type SitePage = z.infer<typeof sitePageSchema>;
export const sitePageParamSchema = z.object({ name: sitePageNameSchema });
export const sitePageQuerySchema = z.strictObject({
  locale: z
    .string()
    .regex(/^[a-z]{2,3}$/, 'a language code such as fr')
    .optional(),
});

/**
 * `GET /api/v1/pages`: the pages that have a text (the operator's or a bundled one; the others are
 * not linked), and how visitors reach the operator (an e-mail address or a URL; null on a private arena).
 */
export const sitePageListSchema = z.object({ pages: z.array(sitePageNameSchema), operator_contact: z.string().nullable() });
export type SitePageList = z.infer<typeof sitePageListSchema>;

/** `GET /api/v1/stats`: the arena's vote counter, and the operator's goal when one is set. */
export const arenaStatsSchema = z.object({ votes: z.number().int().nonnegative(), vote_goal: z.number().int().positive().nullable() });
export type ArenaStats = z.infer<typeof arenaStatsSchema>;
