import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';
import type { ActivityCounts } from '../../domain/statistics/console-activity';
import { countPerDay, counted, decodeList, ofArenaDuels, screenedGroups } from './statistics.repository';

/**
 * The console's activity as group counts over a period, straight from the store (every instance
 * reads the same): the public statistics' queries (statistics.repository.ts) scoped to the arena's
 * own duels from a day on, and the funnel, modes, answers per model and imports beside them. Nothing
 * but counts leaves these queries: no text, no visitor hash, no time finer than a day.
 */
export class ActivityRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The period's counts from `since` (an ISO-8601 instant, the first of the period's first day). */
  async counts(since: string): Promise<ActivityCounts> {
    const scope = { since };
    const [duelDays, voteDays, reactionDays, reportDays, funnel, languages, topics, modes, sides, imported] = await Promise.all([
      countPerDay(this.db, 'duels', scope),
      countPerDay(this.db, 'votes', scope),
      countPerDay(this.db, 'reactions', scope),
      countPerDay(this.db, 'reports', scope),
      this.funnel(since),
      screenedGroups(this.db, 'languages', scope),
      screenedGroups(this.db, 'categories', scope),
      this.modes(since),
      this.sides(since),
      this.imported(since),
    ]);
    return {
      duelDays: counted(duelDays),
      voteDays: counted(voteDays),
      reactionDays: counted(reactionDays),
      reportDays: counted(reportDays),
      funnel,
      languages: counted(languages).map((row) => ({ values: decodeList(row.value), count: row.count })),
      topics: counted(topics).map((row) => ({ values: decodeList(row.value), count: row.count })),
      modes: counted(modes),
      sides: counted(sides),
      imported,
    };
  }

  /** The duels started from `since`: all, those whose first turn both models completed, those voted on. */
  private async funnel(since: string): Promise<ActivityCounts['funnel']> {
    const row = await this.db
      .selectFrom('duels as d')
      .leftJoin('turns as t', (join) => join.onRef('t.duel_id', '=', 'd.id').on('t.turn', '=', 1).on('t.status', '=', 'complete'))
      .leftJoin('votes as v', 'v.duel_id', 'd.id')
      .select((eb) => [
        eb.fn.countAll<string | number>().as('prompts'),
        eb.fn.count<string | number>('t.duel_id').as('answered'),
        eb.fn.count<string | number>('v.duel_id').as('voted'),
      ])
      .where('d.source', '=', 'arena')
      .where('d.created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return { prompts: Number(row.prompts), answered: Number(row.answered), voted: Number(row.voted) };
  }

  private modes(since: string) {
    return this.db
      .selectFrom('duels')
      .select(['mode as name', (eb) => eb.fn.countAll<string | number>().as('count')])
      .where('source', '=', 'arena')
      .where('created_at', '>=', since)
      .groupBy('mode')
      .execute();
  }

  /** Answers of the turns started from `since`, by model and outcome (a turn's sides are stored when it ends). */
  private sides(since: string) {
    return this.db
      .selectFrom('turn_sides as s')
      .innerJoin('turns as t', (join) => join.onRef('t.duel_id', '=', 's.duel_id').onRef('t.turn', '=', 's.turn'))
      .select(['s.model_id as model', 's.status as status', (eb) => eb.fn.countAll<string | number>().as('count')])
      .where('t.started_at', '>=', since)
      .where(ofArenaDuels('s.duel_id'))
      .groupBy(['s.model_id', 's.status'])
      .execute();
  }

  /** Imported duels dated from `since`, and their votes: counted apart, in no other figure. */
  private async imported(since: string): Promise<ActivityCounts['imported']> {
    const [duels, votes] = await Promise.all([
      this.db
        .selectFrom('duels')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('source', '<>', 'arena')
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('votes')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('created_at', '>=', since)
        .where(sql<boolean>`duel_id in (select imported.id from duels imported where imported.source <> 'arena')`)
        .executeTakeFirstOrThrow(),
    ]);
    return { duels: Number(duels.count), votes: Number(votes.count) };
  }
}
