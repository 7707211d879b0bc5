import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './spec';

describe('Retry-After', () => {
  const now = Date.parse('2026-12-01T12:00:00Z');
  it('reads delay-seconds and HTTP dates as milliseconds to wait', () => {
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Tue, 01 Dec 2026 12:00:30 GMT', now)).toBe(30_000);
  });

  it('never waits a negative time, and ignores what it cannot read', () => {
    expect(retryAfterMs('Tue, 01 Dec 2026 11:00:00 GMT', now)).toBe(0);
    for (const value of [undefined, null, '', 'soon', '-5', '1.5']) expect(retryAfterMs(value, now)).toBeUndefined();
  });
});
