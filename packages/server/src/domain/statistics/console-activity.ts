import type { Activity, ActivityDay, ActivityModel } from '@agora/contract';
import { mainLanguages, tally, topicCounts } from './arena-statistics';

/** The console's period: `days` whole UTC days, the last one today's. */
export interface ActivityPeriod {
  /** First and last day, `YYYY-MM-DD`. */
  from: string;
  to: string;
  days: number;
  /** The first instant of `from`, as the store's ISO-8601 timestamps compare. */
  since: string;
}

const DAY_MS = 86_400_000;

/** The period of `days` UTC days that ends on the day of `now`. */
export function activityPeriod(now: Date, days: number): ActivityPeriod {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = new Date(today - (days - 1) * DAY_MS).toISOString();
  return { from: first.slice(0, 10), to: new Date(today).toISOString().slice(0, 10), days, since: first };
}

type DayCount = { day: string; count: number };
type ListGroup = { values: string[] | null; count: number };

/** The period's group counts as the store gives them (db/repositories/activity.repository.ts), the arena's own duels only. */
export interface ActivityCounts {
  duelDays: DayCount[];
  voteDays: DayCount[];
  reactionDays: DayCount[];
  reportDays: DayCount[];
  /** Duels started in the period: all, those whose first turn both models completed, those voted on. */
  funnel: { prompts: number; answered: number; voted: number };
  /** The period's screened conversations by their languages (most frequent first) and by their topics. */
  languages: ListGroup[];
  topics: ListGroup[];
  modes: { name: string; count: number }[];
  /** Answers of the turns started in the period, by model and by how they ended (`complete`, `failed`, `cancelled`). */
  sides: { model: string; status: string; count: number }[];
  /** Imported duels and votes dated in the period (left out of the figures above). */
  imported: { duels: number; votes: number };
}

/** The console's activity figures from the period's group counts. Unlike the public page, no small cell is hidden: staff read them. */
export function consoleActivity(counts: ActivityCounts, period: ActivityPeriod, generatedAt: string): Activity {
  const series = dailySeries(counts, period);
  const sum = (key: 'duels' | 'votes' | 'reactions' | 'reports') => series.reduce((total, day) => total + day[key], 0);
  const screened = counts.languages.reduce((total, group) => total + group.count, 0);
  const withTopics = counts.topics.reduce((total, group) => total + ((group.values ?? []).length > 0 ? group.count : 0), 0);
  return {
    generated_at: generatedAt,
    from: period.from,
    to: period.to,
    days: period.days,
    totals: { duels: sum('duels'), votes: sum('votes'), reactions: sum('reactions'), reports: sum('reports') },
    series,
    funnel: counts.funnel,
    screened,
    // A screened conversation without a language list is counted as unknown, so that the table adds up to `screened`.
    languages: mainLanguages(counts.languages.map((group) => ({ values: group.values ?? [], count: group.count }))),
    topics: topicCounts(counts.topics),
    topics_none: Math.max(0, screened - withTopics),
    modes: tally(counts.modes),
    models: modelFailures(counts.sides),
    imported: counts.imported,
  };
}

/** Every day of the period in order, with zeros where nothing happened (a chart's gaps are days, not missing points). */
function dailySeries(counts: ActivityCounts, period: ActivityPeriod): ActivityDay[] {
  const start = Date.parse(period.since);
  const byDay = new Map<string, ActivityDay>();
  for (let index = 0; index < period.days; index += 1) {
    const day = new Date(start + index * DAY_MS).toISOString().slice(0, 10);
    byDay.set(day, { day, duels: 0, votes: 0, reactions: 0, reports: 0 });
  }
  const add = (rows: DayCount[], key: 'duels' | 'votes' | 'reactions' | 'reports') => {
    // A day outside the period (another instance's clock a little ahead) is left out rather than added as a stray point.
    for (const row of rows) {
      const entry = byDay.get(row.day);
      if (entry) entry[key] += row.count;
    }
  };
  add(counts.duelDays, 'duels');
  add(counts.voteDays, 'votes');
  add(counts.reactionDays, 'reactions');
  add(counts.reportDays, 'reports');
  return [...byDay.values()];
}

/** Each model's sides by outcome and its failure rate (failed / sides); the highest rate first, then most sides, then by id. */
function modelFailures(sides: ActivityCounts['sides']): ActivityModel[] {
  const byModel = new Map<string, ActivityModel>();
  for (const row of sides) {
    const entry = byModel.get(row.model) ?? { model: row.model, sides: 0, complete: 0, failed: 0, cancelled: 0, failure_rate: 0 };
    entry.sides += row.count;
    if (row.status === 'complete' || row.status === 'failed' || row.status === 'cancelled') entry[row.status] += row.count;
    byModel.set(row.model, entry);
  }
  const models = [...byModel.values()].map((entry) => ({ ...entry, failure_rate: entry.sides === 0 ? 0 : entry.failed / entry.sides }));
  return models.sort(
    (a, b) => b.failure_rate - a.failure_rate || b.sides - a.sides || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0),
  );
}
