import { z } from 'zod';

const count = z.number().int().nonnegative();

/** One day (UTC, `YYYY-MM-DD`) of the arena: duels started, votes and reactions given that day. */
export const statisticsDaySchema = z.object({ day: z.string(), duels: count, votes: count, reactions: count });

/** A count under a name (a language, a topic, a mode, a vote's choice). */
export const statisticsCountSchema = z.object({ name: z.string(), count });

/** One model's votes: how often it won, lost, tied or was judged bad with the other. */
export const statisticsModelSchema = z.object({
  model: z.string(),
  votes: count,
  wins: count,
  losses: count,
  ties: count,
  both_bad: count,
});

/**
 * `GET /api/v1/statistics`: the arena's public figures, counted from the store (every instance gives
 * the same). Nothing personal: no visitor, no text, no time finer than a day. Languages and topics
 * counted fewer than `min_cell` times are summed into `other` (a rare language could point at a person).
 */
export const arenaStatisticsSchema = z.object({
  generated_at: z.string(),
  /** Cells of languages and topics below this count are summed into `languages_other` / `topics_other`. */
  min_cell: count,
  totals: z.object({ duels: count, votes: count, reactions: count }),
  days: z.array(statisticsDaySchema),
  /** Each conversation under its main language, once screened; `und` when unknown. */
  languages: z.array(statisticsCountSchema),
  languages_other: count,
  /** Screened conversations not yet given a language. */
  languages_pending: count,
  /** A conversation is counted under each of its topics. */
  topics: z.array(statisticsCountSchema),
  topics_other: count,
  modes: z.array(statisticsCountSchema),
  /** Votes by choice: a, b, tie, both_bad. */
  choices: z.array(statisticsCountSchema),
  models: z.array(statisticsModelSchema),
});
export type ArenaStatistics = z.infer<typeof arenaStatisticsSchema>;
export type StatisticsModel = z.infer<typeof statisticsModelSchema>;
export type StatisticsCount = z.infer<typeof statisticsCountSchema>;
export type StatisticsDay = z.infer<typeof statisticsDaySchema>;
