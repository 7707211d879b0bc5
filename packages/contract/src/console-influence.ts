import { z } from 'zod';

/**
 * The console's rank influence (`GET /api/v1/admin/influence`, reviewers; docs/ranking.md#rank-influence):
 * for each model of the main board, the groups of votes (one visitor's cookie, or one address hash)
 * whose removal moves its rating most, whether one crosses the alert rule, and how many more votes
 * would separate neighbours whose intervals overlap. Computed once per leaderboard refresh.
 */
export const INFLUENCE_MAX_TOP = 50;
export const INFLUENCE_DEFAULT_TOP = 10;
/** Characters of a group's hash shown: enough to tell groups apart and to find them on the integrity page. */
export const INFLUENCE_GROUP_CHARS = 16;

export const influenceQuerySchema = z.strictObject({
  /** One model; without it, every model, the one its top group moves most first. */
  model: z.string().min(1).max(200).optional(),
  by: z.enum(['visitor', 'address']).default('visitor'),
  top: z.coerce.number().int().min(1).max(INFLUENCE_MAX_TOP).default(INFLUENCE_DEFAULT_TOP),
  /** Count the votes the integrity rules flag too: what a campaign the rules missed would do. */
  include_flagged: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});
export type InfluenceQuery = z.infer<typeof influenceQuerySchema>;

export const influenceGroupSchema = z.object({
  /** The group's hash as stored, cut to {@link INFLUENCE_GROUP_CHARS} characters. */
  group: z.string(),
  /** The model's rating change in points when the group is left out (after − before). */
  points: z.number(),
  votes: z.number().int(),
  votes_on_model: z.number().int(),
  rank_before: z.number().int(),
  rank_after: z.number().int(),
  alert: z.boolean(),
});
export type InfluenceGroup = z.infer<typeof influenceGroupSchema>;

export const influenceModelSchema = z.object({
  model: z.string(),
  rating: z.number(),
  /** Half-width of its 95 % interval, in points. */
  half_width: z.number(),
  /** Some group of {@link groups} crosses the alert rule. */
  alert: z.boolean(),
  groups: z.array(influenceGroupSchema),
});
export type InfluenceModel = z.infer<typeof influenceModelSchema>;

/** Two neighbours whose intervals overlap, and the votes that would separate them at 95 %. */
export const influencePlanSchema = z.object({
  higher: z.string(),
  lower: z.string(),
  gap_points: z.number(),
  overlap_points: z.number(),
  /** More votes between the two alone; null when they cannot be separated (a gap of 0). */
  votes_between: z.number().int().nullable(),
  /** More votes spread over the board as the arena draws them; null likewise. */
  votes_spread: z.number().int().nullable(),
});
export type InfluencePlan = z.infer<typeof influencePlanSchema>;

export const influenceSchema = z.object({
  by: z.enum(['visitor', 'address']),
  include_flagged: z.boolean(),
  /** The leaderboard refresh this answer belongs to (its main board's `generated_at`); null before the first. */
  board_generated_at: z.string().nullable(),
  /** Main-board votes the computation read, and the groups among them. */
  votes: z.number().int(),
  groups: z.number().int(),
  /** Groups whose removal would leave some rating undefined (not ranked). */
  undefined_groups: z.number().int(),
  alert_rule: z.object({ half_width_share: z.number(), points: z.number() }),
  models: z.array(influenceModelSchema),
  plans: z.array(influencePlanSchema),
});
export type Influence = z.infer<typeof influenceSchema>;
