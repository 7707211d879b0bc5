import { describe, expect, it } from 'vitest';
import { type ActivityCounts, activityPeriod, consoleActivity } from './console-activity';

const empty: ActivityCounts = {
  duelDays: [],
  voteDays: [],
  reactionDays: [],
  reportDays: [],
  funnel: { prompts: 0, answered: 0, voted: 0 },
  languages: [],
  topics: [],
  modes: [],
  sides: [],
  imported: { duels: 0, votes: 0 },
};

describe('activityPeriod', () => {
  it('ends on the UTC day of now and spans the days asked, across a month and a year', () => {
    expect(activityPeriod(new Date('2026-03-01T23:59:59.999Z'), 3)).toEqual({
      from: '2026-02-27',
      to: '2026-03-01',
      days: 3,
      since: '2026-02-27T00:00:00.000Z',
    });
    expect(activityPeriod(new Date('2026-01-01T00:00:00.000Z'), 1).since).toBe('2026-01-01T00:00:00.000Z');
    expect(activityPeriod(new Date('2026-01-01T00:00:00.000Z'), 2).from).toBe('2025-12-31');
  });
});

describe('consoleActivity', () => {
  const period = activityPeriod(new Date('2026-02-12T10:00:00Z'), 3);

  it('gives every day of the period, zeros included, and leaves out a day past its end', () => {
    const activity = consoleActivity(
      {
        ...empty,
        duelDays: [
          { day: '2026-02-10', count: 2 },
          { day: '2026-02-13', count: 9 },
        ],
        reportDays: [{ day: '2026-02-12', count: 1 }],
      },
      period,
      '2026-02-12T10:00:00.000Z',
    );
    expect(activity.series).toEqual([
      { day: '2026-02-10', duels: 2, votes: 0, reactions: 0, reports: 0 },
      { day: '2026-02-11', duels: 0, votes: 0, reactions: 0, reports: 0 },
      { day: '2026-02-12', duels: 0, votes: 0, reactions: 0, reports: 1 },
    ]);
    expect(activity.totals).toEqual({ duels: 2, votes: 0, reactions: 0, reports: 1 });
  });

  it('rates failures as failed sides over all sides, highest first; a cancelled side is not the model’s failure', () => {
    const activity = consoleActivity(
      {
        ...empty,
        sides: [
          { model: 'steady', status: 'complete', count: 9 },
          { model: 'steady', status: 'cancelled', count: 1 },
          { model: 'shaky', status: 'complete', count: 3 },
          { model: 'shaky', status: 'failed', count: 1 },
        ],
      },
      period,
      '2026-02-12T10:00:00.000Z',
    );
    expect(activity.models).toEqual([
      { model: 'shaky', sides: 4, complete: 3, failed: 1, cancelled: 0, failure_rate: 0.25 },
      { model: 'steady', sides: 10, complete: 9, failed: 0, cancelled: 1, failure_rate: 0 },
    ]);
  });

  it('counts each screened conversation once under its main language and under each of its topics', () => {
    const activity = consoleActivity(
      {
        ...empty,
        languages: [
          { values: ['fr', 'en'], count: 3 },
          { values: ['en'], count: 1 },
          { values: null, count: 1 },
        ],
        topics: [
          { values: ['health', 'food'], count: 2 },
          { values: [], count: 3 },
        ],
      },
      period,
      '2026-02-12T10:00:00.000Z',
    );
    expect(activity.screened).toBe(5);
    expect(activity.languages).toEqual([
      { name: 'fr', count: 3 },
      { name: 'en', count: 1 },
      { name: 'und', count: 1 },
    ]);
    expect(activity.topics).toEqual([
      { name: 'food', count: 2 },
      { name: 'health', count: 2 },
    ]);
    expect(activity.topics_none).toBe(3);
  });
});
