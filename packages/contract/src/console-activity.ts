import { z } from 'zod';

/**
 * The console's activity (`GET /api/v1/admin/activity?days=N`, reviewers): the arena's own duels of
 * the last N UTC days as aggregate figures, read from the store (every instance gives the same
 * answer). No text of any conversation, no visitor, no time finer than a day. Imported duels
 * (compar:IA, `source` ≠ `arena`) are left out of every figure and counted apart in `imported`.
 */
export const ACTIVITY_DEFAULT_DAYS = 30;
/** A year and a day: a leap year's whole span fits. */
export const ACTIVITY_MAX_DAYS = 366;
/** The period picker's choices (the API takes any whole number of days from 1 to {@link ACTIVITY_MAX_DAYS}). */
export const ACTIVITY_PERIODS = [7, 30, 90, 365] as const;

export const activityQuerySchema = z.strictObject({
  days: z.coerce.number().int().min(1).max(ACTIVITY_MAX_DAYS).default(ACTIVITY_DEFAULT_DAYS),
});
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

const count = z.number().int().nonnegative();

/** One UTC day (`YYYY-MM-DD`): duels started, votes, reactions and reports given that day. */
export const activityDaySchema = z.object({ day: z.string(), duels: count, votes: count, reactions: count, reports: count });
export type ActivityDay = z.infer<typeof activityDaySchema>;

export const activityCountSchema = z.object({ name: z.string(), count });
export type ActivityCount = z.infer<typeof activityCountSchema>;

/**
 * The duels started in the period, followed to their end: a prompt sent, the first turn answered
 * by both models (both sides complete), a vote.
 */
export const activityFunnelSchema = z.object({ prompts: count, answered: count, voted: count });
export type ActivityFunnel = z.infer<typeof activityFunnelSchema>;

/**
 * One model's answers (sides) of the turns started in the period: completed, failed (the model's
 * own failure), cancelled (stopped because the other side failed). `failure_rate` is failed / sides.
 */
export const activityModelSchema = z.object({
  model: z.string(),
  sides: count,
  complete: count,
  failed: count,
  cancelled: count,
  failure_rate: z.number().min(0).max(1),
});
export type ActivityModel = z.infer<typeof activityModelSchema>;

export const activitySchema = z.object({
  generated_at: z.string(),
  /** The period: its first and last UTC day, and how many days it spans. */
  from: z.string(),
  to: z.string(),
  days: count,
  totals: z.object({ duels: count, votes: count, reactions: count, reports: count }),
  /** Every day of the period, in order, zeros included. */
  series: z.array(activityDaySchema),
  funnel: activityFunnelSchema,
  /** The period's duels screened so far (post-processing done): what languages and topics are counted over. */
  screened: count,
  /** Each screened conversation under its main language (`und` when unknown); most first. */
  languages: z.array(activityCountSchema),
  /** A screened conversation is counted under each of its topics; those without topics (model layer off or pending) in `topics_none`. */
  topics: z.array(activityCountSchema),
  topics_none: count,
  modes: z.array(activityCountSchema),
  models: z.array(activityModelSchema),
  /** Imported duels (and their votes) dated in the period, left out of every figure above. */
  imported: z.object({ duels: count, votes: count }),
});
export type Activity = z.infer<typeof activitySchema>;
