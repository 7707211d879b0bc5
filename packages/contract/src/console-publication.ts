import { z } from 'zod';
import { DATASET_TIER_NAMES, datasetRowsSchema } from './datasets';

/**
 * The console's publication area (`/admin/publication`, admins): run an export with the code of
 * `agora export`, list the builds, push one to Hugging Face dataset repositories, schedule it.
 */

export const EXPORT_FORMATS = ['parquet', 'jsonl'] as const;
export const PUBLICATION_SCHEDULES = ['off', 'daily', 'weekly'] as const;
export type PublicationSchedule = (typeof PUBLICATION_SCHEDULES)[number];

/** A Hugging Face repository id, `owner/name`. */
export const hubRepositorySchema = z
  .string()
  .trim()
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a Hugging Face repository, owner/name');

/**
 * A Hugging Face access token (write access to the repositories). `hf_` then letters and digits: the
 * client library refuses any other, and nothing else (spaces, newlines) reaches a header.
 */
export const hubTokenSchema = z.string().regex(/^hf_[A-Za-z0-9]{10,200}$/, 'a Hugging Face access token (hf_…)');

/** `POST /api/v1/admin/publication/exports`: what `agora export --format --dataset-license` takes; the rest as its defaults. */
export const publicationExportRequestSchema = z.strictObject({
  formats: z.array(z.enum(EXPORT_FORMATS)).min(1).max(2).optional(),
  dataset_license: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{0,63}$/, 'a Hugging Face licence id, e.g. cc-by-4.0')
    .optional(),
});
export type PublicationExportRequest = z.infer<typeof publicationExportRequestSchema>;

export const PUBLICATION_RUN_KINDS = ['export', 'push', 'scheduled'] as const;
export const PUBLICATION_RUN_STATUSES = ['running', 'done', 'failed', 'interrupted'] as const;

/** Why a push failed, for the console to say in the member's language (`detail` has the Hub's own words). */
export const PUBLICATION_FAILURES = [
  'hub_unauthorized',
  'hub_forbidden',
  'hub_repository_not_found',
  'hub_rate_limited',
  'hub_unavailable',
  'hub_error',
  'files_missing',
  'not_configured',
  'export_failed',
] as const;
export type PublicationFailure = (typeof PUBLICATION_FAILURES)[number];

/** What one push sent to one repository. */
export const hubPushSchema = z.object({
  tier: z.enum(DATASET_TIER_NAMES),
  repository: z.string(),
  files: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  commit_url: z.string().nullable(),
});
export type HubPush = z.infer<typeof hubPushSchema>;

/** An export or a push under way or past: its progress is read by polling (any instance answers from the store). */
export const publicationRunSchema = z.object({
  id: z.string(),
  kind: z.enum(PUBLICATION_RUN_KINDS),
  status: z.enum(PUBLICATION_RUN_STATUSES),
  /** Who started it (an e-mail, `admin-token`, or `schedule`). */
  actor: z.string(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  /** Conversations read (export) or files sent (push), out of `total` (an upper bound while it runs). */
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** The build it made (export) or pushed (push). */
  build_id: z.string().nullable(),
  pushes: z.array(hubPushSchema),
  failure: z.enum(PUBLICATION_FAILURES).nullable(),
  /** The Hub's or the export's own message when it failed (never a token). */
  detail: z.string().nullable(),
});
export type PublicationRun = z.infer<typeof publicationRunSchema>;

/** A past export (`dataset_builds`): its rows per dataset and its cards. */
export const publicationBuildSchema = z.object({
  id: z.string(),
  built_at: z.string(),
  conversations: z.number().int().nonnegative(),
  license: z.string(),
  formats: z.array(z.string()),
  datasets: z.array(datasetRowsSchema),
  /** Each tier's card (`README.md`), readable at `card_url` while this server holds the folder. */
  cards: z.array(z.object({ tier: z.enum(DATASET_TIER_NAMES), card_url: z.string().nullable() })),
  /** A visitor erased a duel its files may hold: it is no longer served, nor pushed. */
  withdrawn: z.boolean(),
  /** The last successful push of this build, if any. */
  pushed_at: z.string().nullable(),
});
export type PublicationBuild = z.infer<typeof publicationBuildSchema>;

/** The Hub settings as the console shows them: never the token, only whether one is set and from where. */
export const hubSettingsSchema = z.object({
  hub_url: z.string(),
  public_repository: z.string().nullable(),
  gated_repository: z.string().nullable(),
  token_set: z.boolean(),
  /** `console`: given in the console (stored); `environment`: AGORA_HUB_TOKEN. */
  token_source: z.enum(['console', 'environment']).nullable(),
  schedule: z.enum(PUBLICATION_SCHEDULES),
  /** When the schedule last published, and when it will next. */
  last_scheduled_at: z.string().nullable(),
  next_scheduled_at: z.string().nullable(),
});
export type HubSettings = z.infer<typeof hubSettingsSchema>;

/** `PUT /api/v1/admin/publication/settings`: what is given changes; null clears a repository (back to the environment's). */
export const hubSettingsUpdateSchema = z.strictObject({
  public_repository: hubRepositorySchema.nullable().optional(),
  gated_repository: hubRepositorySchema.nullable().optional(),
  /** Stored, and never answered again. */
  token: hubTokenSchema.optional(),
  /** Forgets the token given in the console (AGORA_HUB_TOKEN, if set, applies again). */
  clear_token: z.literal(true).optional(),
  schedule: z.enum(PUBLICATION_SCHEDULES).optional(),
});
export type HubSettingsUpdate = z.infer<typeof hubSettingsUpdateSchema>;

/** `GET /api/v1/admin/publication`: the whole page in one read. */
export const publicationOverviewSchema = z.object({
  settings: hubSettingsSchema,
  builds: z.array(publicationBuildSchema),
  runs: z.array(publicationRunSchema),
});
export type PublicationOverview = z.infer<typeof publicationOverviewSchema>;
