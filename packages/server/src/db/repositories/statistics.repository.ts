import { type Kysely, sql } from 'kysely';
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
      this.perDay('duels'),
      this.perDay('votes'),
      this.perDay('reactions'),
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
      this.screened('languages'),
      this.screened('categories'),
    ]);
    const counted = <Row extends { count: string | number }>(rows: Row[]) => rows.map((row) => ({ ...row, count: Number(row.count) }));
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

  /** Rows per UTC day: timestamps are ISO-8601 text, so the day is their first ten characters on both stores. */
  private perDay(table: 'duels' | 'votes' | 'reactions') {
    const day = sql<string>`substr(created_at, 1, 10)`;
    return this.db
      .selectFrom(table)
      .select([day.as('day'), (eb) => eb.fn.countAll<string | number>().as('count')])
      .groupBy(day)
      .orderBy(day)
      .execute();
  }

  /** Screened conversations grouped by one JSON list column of their annotation. */
  private screened(column: 'languages' | 'categories') {
    return this.db
      .selectFrom('conversation_annotations')
      .select([`${column} as value`, (eb) => eb.fn.countAll<string | number>().as('count')])
      .where('status', '=', 'done')
      .groupBy(column)
      .execute();
  }
}

function decodeList(value: string | null): string[] | null {
  if (value === null) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : null;
  } catch {
    return null;
  }
}
