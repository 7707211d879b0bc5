import { z } from 'zod';
import { energyClassSchema, rangeSchema } from './duels';
import { modelCardSchema } from './models';
import { capabilitySchema } from './capabilities';

/** `GET /api/v1/leaderboard` query: one view of the ranking. */
export const leaderboardQuerySchema = z.strictObject({
  style: z.enum(['plain', 'controlled']).default('plain'),
  language: z
    .string()
    .regex(/^[a-z]{2,3}$/, 'an ISO 639 language code')
    .optional(),
  category: z.string().min(1).max(100).optional(),
  mode: z.enum(['random', 'custom', 'small-models', 'big-vs-small', 'reasoning']).optional(),
  /** A capability view (docs/ranking.md#capability-views): the votes on conversations with this label. */
  capability: capabilitySchema.optional(),
});
export type LeaderboardQuery = z.infer<typeof leaderboardQuerySchema>;

/** One model's line: rating on the 1000 + 400/ln10·θ scale with its 95 % interval and rank bounds. */
export const leaderboardRowSchema = modelCardSchema
  .pick({ name: true, organisation: true, license: true, open_weights: true, arch: true, params_b: true })
  .extend({
    model: z.string(),
    rating: z.number(),
    se: z.number(),
    ci_low: z.number(),
    ci_high: z.number(),
    /** Null for provisional models (not enough comparisons to be ranked). */
    rank: z.number().int().nullable(),
    rank_best: z.number().int().nullable(),
    rank_worst: z.number().int().nullable(),
    tier: z.number().int().nullable(),
    n_battles: z.number().int(),
    wins: z.number().int(),
    losses: z.number().int(),
    ties: z.number().int(),
    both_bad: z.number().int(),
    win_rate: z.number(),
    /** Share of the model's duels both answers were judged bad: an absolute-quality signal beside the relative rating. */
    both_bad_rate: z.number(),
    provisional: z.boolean(),
    /** Energy per 1,000 output tokens (EcoLogits); null when the model's size is unknown. */
    wh_per_1000_tokens: rangeSchema.nullable(),
    /** Mean energy of the model's side of a duel, over the duels of this view that have it. */
    mean_energy_wh_per_duel: rangeSchema.nullable(),
    /** The model's energy class on the catalogue's reference answer (docs/impact.md#energy-classes); absent when unknown. */
    energy_class: energyClassSchema.optional(),
  });
export type LeaderboardRow = z.infer<typeof leaderboardRowSchema>;

const viewCountSchema = z.object({ value: z.string(), n_votes: z.number().int() });

/** A leaderboard view, as the latest background refresh computed it. */
export const leaderboardSchema = z.object({
  /** When this view was computed; null before the first refresh. */
  generated_at: z.string().nullable(),
  view: z.object({
    style: z.enum(['plain', 'controlled']),
    language: z.string().nullable(),
    category: z.string().nullable(),
    mode: z.string().nullable(),
    /** The capability view's label; null (or absent) on other views. */
    capability: z.string().nullable().optional(),
  }),
  /** Votes in this view (after leaving out identity leaks), and the minimum for it to be shown. */
  n_votes: z.number().int(),
  min_votes: z.number().int(),
  variant: z.string().nullable(),
  models: z.array(leaderboardRowSchema),
  /** The views that have enough votes, for the toggles. */
  available: z.object({
    languages: z.array(viewCountSchema),
    modes: z.array(viewCountSchema),
    categories: z.array(viewCountSchema),
    /** Capability labels with enough votes for a view (absent from snapshots made before they existed). */
    capabilities: z.array(viewCountSchema).optional(),
  }),
  style_coefficients: z.record(z.string(), z.number()).nullable(),
  /**
   * While this instance reads the stored votes after a start (before its first refresh ends): how
   * many it has read of how many. Absent once the board is up to date.
   */
  catching_up: z.object({ read: z.number().int(), total: z.number().int() }).optional(),
});
export type LeaderboardBody = z.infer<typeof leaderboardSchema>;

/** `GET /api/v1/leaderboard/history?model=…`: a model's overall rating over the kept snapshots. */
export const leaderboardHistoryQuerySchema = z.strictObject({
  model: z.string().min(1).max(200),
  style: z.enum(['plain', 'controlled']).default('plain'),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});
export const leaderboardHistorySchema = z.object({
  model: z.string(),
  points: z.array(
    z.object({ generated_at: z.string(), rating: z.number(), ci_low: z.number(), ci_high: z.number(), n_votes: z.number().int() }),
  ),
});
