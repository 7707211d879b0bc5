import { describe, expect, it } from 'vitest';
import { nextScheduledAt, runStatusOf, scheduledPublicationDue } from './schedule';

const now = new Date('2026-12-08T12:00:00.000Z');

describe('the scheduled publication', () => {
  it('is never due when off', () => {
    expect(nextScheduledAt('off', null, now)).toBeNull();
    expect(scheduledPublicationDue('off', '2026-01-01T00:00:00.000Z', now)).toBe(false);
  });

  it('is due at once when it never ran, then a day or a week after the last one', () => {
    expect(scheduledPublicationDue('daily', null, now)).toBe(true);
    expect(scheduledPublicationDue('daily', '2026-12-07T12:00:00.001Z', now)).toBe(false);
    expect(scheduledPublicationDue('daily', '2026-12-07T12:00:00.000Z', now)).toBe(true);
    expect(nextScheduledAt('weekly', '2026-12-07T12:00:00.000Z', now)?.toISOString()).toBe('2026-12-14T12:00:00.000Z');
    expect(scheduledPublicationDue('weekly', '2026-12-02T12:00:00.000Z', now)).toBe(false);
    expect(scheduledPublicationDue('weekly', '2026-12-01T12:00:00.000Z', now)).toBe(true);
  });
});

describe('a run read back', () => {
  it('is interrupted when its heartbeat stopped, running while it beats', () => {
    expect(runStatusOf('running', '2026-12-08T11:59:50.000Z', now, 30_000)).toBe('running');
    expect(runStatusOf('running', '2026-12-08T11:59:00.000Z', now, 30_000)).toBe('interrupted');
    expect(runStatusOf('done', '2026-12-08T11:00:00.000Z', now, 30_000)).toBe('done');
    expect(runStatusOf('failed', '2026-12-08T11:00:00.000Z', now, 30_000)).toBe('failed');
    expect(runStatusOf('interrupted', '2026-12-08T11:00:00.000Z', now, 30_000)).toBe('interrupted');
  });
});
