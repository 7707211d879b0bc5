import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it } from 'vitest';
import { WindowCounter } from './window-counter';

describe('a window counter', () => {
  let time = 1_800_000_000_000;
  const counters: WindowCounter[] = [];
  const counterOf = (points: number, windowMs: number) => {
    const counter = new WindowCounter(points, windowMs, () => time);
    counters.push(counter);
    return counter;
  };
  const refusalOf = async (answer: Promise<RateLimiterRes>) => {
    const refusal = await answer.catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RateLimiterRes);
    const { consumedPoints, remainingPoints, msBeforeNext } = refusal as RateLimiterRes;
    return { consumedPoints, remainingPoints, msBeforeNext };
  };
  afterEach(() => {
    for (const counter of counters.splice(0)) counter.stop();
  });

  it('answers its points, then refuses with the count so far and the time left in the key’s window', async () => {
    const counter = counterOf(2, 60_000);
    expect((await counter.consume('a', 1)).remainingPoints).toBe(1);
    time += 10_000;
    expect((await counter.consume('a', 1)).remainingPoints).toBe(0);
    expect(await refusalOf(counter.consume('a', 1))).toEqual({ consumedPoints: 3, remainingPoints: 0, msBeforeNext: 50_000 });
    // Another key has its own count and window; points beyond one count as many.
    expect(await refusalOf(counter.consume('b', 3))).toEqual({ consumedPoints: 3, remainingPoints: 0, msBeforeNext: 60_000 });
    expect((await counter.get('a'))?.consumedPoints).toBe(3);
    expect(await counter.get('c')).toBeNull();
  });

  it('starts a key afresh a window after its first request', async () => {
    const counter = counterOf(1, 60_000);
    await counter.consume('a', 1);
    time += 59_999;
    expect((await refusalOf(counter.consume('a', 1))).msBeforeNext).toBe(1);
    time += 1;
    expect((await counter.consume('a', 1)).consumedPoints).toBe(1);
    expect((await counter.get('a'))?.msBeforeNext).toBe(60_000);
  });
});
