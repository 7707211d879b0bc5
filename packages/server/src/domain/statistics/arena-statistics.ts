import type { ArenaStatistics, StatisticsCount, StatisticsDay, StatisticsModel } from '@agora/contract';

/** Group counts as the store gives them (db/repositories/statistics.repository.ts). */
export interface StatisticsCounts {
  duelDays: { day: string; count: number }[];
  voteDays: { day: string; count: number }[];
  reactionDays: { day: string; count: number }[];
  modes: { name: string; count: number }[];
  choices: { name: string; count: number }[];
  pairs: { modelA: string; modelB: string; choice: string; count: number }[];
  /** Screened conversations by their languages (most frequent first) or topics; null: not given. */
  languages: { values: string[] | null; count: number }[];
  topics: { values: string[] | null; count: number }[];
}

/**
 * Languages and topics counted fewer times than this are summed into "other". Five is the smallest
 * cell many statistical offices publish (k-anonymity's usual k): a language or topic seen once or twice
 * could point at the one visitor who writes in it, together with the public dataset's day and language.
 */
export const MIN_PUBLISHED_CELL = 5;

/** The public statistics from the store's group counts. */
export function arenaStatistics(counts: StatisticsCounts, generatedAt: string, minCell = MIN_PUBLISHED_CELL): ArenaStatistics {
  const languages = suppressSmall(mainLanguages(counts.languages), minCell);
  const topics = suppressSmall(topicCounts(counts.topics), minCell);
  const sum = (rows: { count: number }[]) => rows.reduce((total, row) => total + row.count, 0);
  return {
    generated_at: generatedAt,
    min_cell: minCell,
    totals: { duels: sum(counts.duelDays), votes: sum(counts.voteDays), reactions: sum(counts.reactionDays) },
    days: days(counts),
    languages: languages.kept,
    languages_other: languages.other,
    languages_pending: sum(counts.languages.filter((group) => group.values === null)),
    topics: topics.kept,
    topics_other: topics.other,
    modes: tally(counts.modes),
    choices: tally(counts.choices),
    models: models(counts.pairs),
  };
}

/** Screened conversations, grouped by their languages, under their main language (`und` when the list is empty); unscreened groups (null) left out. */
export function mainLanguages(groups: readonly { values: string[] | null; count: number }[]): StatisticsCount[] {
  return tally(groups.flatMap((group) => (group.values === null ? [] : [{ name: group.values[0] ?? 'und', count: group.count }])));
}

/** Conversations grouped by their topics, under each of their topics. */
export function topicCounts(groups: readonly { values: string[] | null; count: number }[]): StatisticsCount[] {
  return tally(groups.flatMap((group) => (group.values ?? []).map((name) => ({ name, count: group.count }))));
}

/** Counts summed by name, largest first (ties by name, so that every instance gives the same order). */
export function tally(rows: readonly StatisticsCount[]): StatisticsCount[] {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(row.name, (totals.get(row.name) ?? 0) + row.count);
  return [...totals]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function suppressSmall(rows: StatisticsCount[], minCell: number): { kept: StatisticsCount[]; other: number } {
  const kept = rows.filter((row) => row.count >= minCell);
  return { kept, other: rows.filter((row) => row.count < minCell).reduce((total, row) => total + row.count, 0) };
}

function days(counts: StatisticsCounts): StatisticsDay[] {
  const byDay = new Map<string, StatisticsDay>();
  const at = (day: string) => byDay.get(day) ?? byDay.set(day, { day, duels: 0, votes: 0, reactions: 0 }).get(day)!;
  for (const row of counts.duelDays) at(row.day).duels += row.count;
  for (const row of counts.voteDays) at(row.day).votes += row.count;
  for (const row of counts.reactionDays) at(row.day).reactions += row.count;
  return [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

/** Each model's wins, losses, ties and both-bad votes, from the votes grouped by pair and choice; most votes first. */
function models(pairs: StatisticsCounts['pairs']): StatisticsModel[] {
  const byModel = new Map<string, StatisticsModel>();
  const at = (model: string) =>
    byModel.get(model) ?? byModel.set(model, { model, votes: 0, wins: 0, losses: 0, ties: 0, both_bad: 0 }).get(model)!;
  for (const pair of pairs) {
    for (const [side, model] of [
      ['a', pair.modelA],
      ['b', pair.modelB],
    ] as const) {
      const entry = at(model);
      entry.votes += pair.count;
      if (pair.choice === 'tie') entry.ties += pair.count;
      else if (pair.choice === 'both_bad') entry.both_bad += pair.count;
      else if (pair.choice === side) entry.wins += pair.count;
      else entry.losses += pair.count;
    }
  }
  return [...byModel.values()].sort((a, b) => b.votes - a.votes || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
}
