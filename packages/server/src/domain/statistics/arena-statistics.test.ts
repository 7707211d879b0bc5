import { describe, expect, it } from 'vitest';
import { type StatisticsCounts, arenaStatistics } from './arena-statistics';

const empty: StatisticsCounts = {
  duelDays: [],
  voteDays: [],
  reactionDays: [],
  modes: [],
  choices: [],
  pairs: [],
  languages: [],
  topics: [],
};

describe('arenaStatistics', () => {
  it('merges the three daily series by day, in day order, with zeros where a series has no row', () => {
    const statistics = arenaStatistics(
      {
        ...empty,
        duelDays: [
          { day: '2026-11-02', count: 3 },
          { day: '2026-11-01', count: 2 },
        ],
        voteDays: [{ day: '2026-11-02', count: 1 }],
        reactionDays: [{ day: '2026-11-03', count: 4 }],
      },
      '2026-12-03T00:00:00.000Z',
    );
    expect(statistics.days).toEqual([
      { day: '2026-11-01', duels: 2, votes: 0, reactions: 0 },
      { day: '2026-11-02', duels: 3, votes: 1, reactions: 0 },
      { day: '2026-11-03', duels: 0, votes: 0, reactions: 4 },
    ]);
    expect(statistics.totals).toEqual({ duels: 5, votes: 1, reactions: 4 });
  });

  it('counts a conversation under its main language and each topic, and sums cells under the threshold into other', () => {
    const statistics = arenaStatistics(
      {
        ...empty,
        languages: [
          { values: ['fr', 'en'], count: 4 },
          { values: ['fr'], count: 2 },
          { values: ['lt'], count: 4 },
          { values: [], count: 1 },
          { values: null, count: 3 },
        ],
        topics: [
          { values: ['Sports', 'Arts'], count: 5 },
          { values: ['Arts'], count: 1 },
        ],
      },
      '2026-12-03T00:00:00.000Z',
      5,
    );
    expect(statistics.languages).toEqual([{ name: 'fr', count: 6 }]);
    // Lithuanian (4) and the conversation without a language (und, 1) are below 5.
    expect(statistics.languages_other).toBe(5);
    expect(statistics.languages_pending).toBe(3);
    expect(statistics.topics).toEqual([
      { name: 'Arts', count: 6 },
      { name: 'Sports', count: 5 },
    ]);
    expect(statistics.topics_other).toBe(0);
  });

  it('gives each model its wins, losses, ties and both-bad votes from either side', () => {
    const statistics = arenaStatistics(
      {
        ...empty,
        pairs: [
          { modelA: 'm1', modelB: 'm2', choice: 'a', count: 3 },
          { modelA: 'm2', modelB: 'm1', choice: 'a', count: 2 },
          { modelA: 'm1', modelB: 'm2', choice: 'tie', count: 1 },
          { modelA: 'm2', modelB: 'm3', choice: 'both_bad', count: 1 },
        ],
      },
      '2026-12-03T00:00:00.000Z',
    );
    expect(statistics.models).toEqual([
      { model: 'm2', votes: 7, wins: 2, losses: 3, ties: 1, both_bad: 1 },
      { model: 'm1', votes: 6, wins: 3, losses: 2, ties: 1, both_bad: 0 },
      { model: 'm3', votes: 1, wins: 0, losses: 0, ties: 0, both_bad: 1 },
    ]);
  });
});
