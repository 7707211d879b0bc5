import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../database';
import type { StatisticsCounts } from '../../domain/statistics/arena-statistics';

/**
 * The arena's public figures as group counts, straight from the store: no visitor hash, no text,
 * no time finer than a day leaves these queries. JSON columns (languages, topics) are decoded here.
 */
export class StatisticsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async counts(): Promise<StatisticsCounts> {
    const [duelDays, voteDays, reactionDays, modes, choices, pairs, languages, topics] = await Promise.all([
      countPerDay(this.db, 'duels'),
      countPerDay(this.db, 'votes'),
      countPerDay(this.db, 'reactions'),
      this.db
        .selectFrom('duels')
        .select(['mode as name', (eb) => eb.fn.countAll<string | number>().as('count')])
        .groupBy('mode')
        .execute(),
      this.db
        .selectFrom('votes')
        .select(['choice as name', (eb) => eb.fn.countAll<string | number>().as('count')])
        .groupBy('choice')
        .execute(),
      this.db
        .selectFrom('votes')
        .select(['model_a', 'model_b', 'choice', (eb) => eb.fn.countAll<string | number>().as('count')])
        .groupBy(['model_a', 'model_b', 'choice'])
        .execute(),
      screenedGroups(this.db, 'languages'),
      screenedGroups(this.db, 'categories'),
    ]);
    return {
      duelDays: counted(duelDays),
      voteDays: counted(voteDays),
      reactionDays: counted(reactionDays),
      modes: counted(modes),
      choices: counted(choices),
      pairs: counted(pairs).map((row) => ({ modelA: row.model_a, modelB: row.model_b, choice: row.choice, count: row.count })),
      languages: counted(languages).map((row) => ({ values: decodeList(row.value), count: row.count })),
      topics: counted(topics).map((row) => ({ values: decodeList(row.value), count: row.count })),
    };
  }
}

/**
 * Which rows a count covers: all of them (the public statistics), or those of the arena's own duels
 * (`source` = `arena`, imports left out) stamped from `since` on (the console's activity).
 */
export type CountScope = { since: string } | undefined;

/** Rows per UTC day: timestamps are ISO-8601 text, so the day is their first ten characters on both stores. */
export function countPerDay(db: Kysely<Database>, table: 'duels' | 'votes' | 'reactions' | 'reports', scope?: CountScope) {
  const day = sql<string>`substr(created_at, 1, 10)`;
  let query = db.selectFrom(table).select([day.as('day'), (eb) => eb.fn.countAll<string | number>().as('count')]);
  if (scope)
    query = query
      .where(sql<SqlBool>`created_at >= ${scope.since}`)
      .where(table === 'duels' ? sql<SqlBool>`source = 'arena'` : ofArenaDuels('duel_id'));
  return query.groupBy(day).orderBy(day).execute();
}

/** Screened conversations grouped by one JSON list column of their annotation (scoped: those of the period's own duels). */
export function screenedGroups(db: Kysely<Database>, column: 'languages' | 'categories', scope?: CountScope) {
  let query = db
    .selectFrom('conversation_annotations')
    .select([`${column} as value`, (eb) => eb.fn.countAll<string | number>().as('count')])
    .where('status', '=', 'done');
  if (scope) query = query.where(ofArenaDuels('duel_id', scope.since));
  return query.groupBy(column).execute();
}

/** `column` (of the outer row) names one of the arena's own duels, started from `since` on when given. */
export function ofArenaDuels(column: string, since?: string): Expression<SqlBool> {
  const period = since === undefined ? sql`` : sql` and arena_duels.created_at >= ${since}`;
  return sql<SqlBool>`${sql.ref(column)} in (select arena_duels.id from duels arena_duels where arena_duels.source = 'arena'${period})`;
}

/** Group counts come back as numbers (SQLite) or numeric strings (PostgreSQL's bigint). */
export function counted<Row extends { count: string | number }>(rows: Row[]): (Omit<Row, 'count'> & { count: number })[] {
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

export function decodeList(value: string | null): string[] | null {
  if (value === null) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : null;
  } catch {
    return null;
  }
}
