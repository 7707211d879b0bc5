import { describe, expect, it } from 'vitest';
import { createSeededRandom, deriveSeed } from './seeded-random';

describe('createSeededRandom', () => {
  it('is reproducible per seed and differs across seeds', () => {
    const take = (seed: number) => {
      const random = createSeededRandom(seed);
      return Array.from({ length: 5 }, () => random.nextUint32());
    };
    expect(take(42)).toEqual(take(42));
    expect(take(42)).not.toEqual(take(43));
    expect(deriveSeed(7, 0)).not.toBe(deriveSeed(7, 1));
  });

  it('gives uniform doubles in [0, 1)', () => {
    const random = createSeededRandom(0);
    const bins = new Array<number>(10).fill(0);
    let outside = 0;
    for (let draw = 0; draw < 100_000; draw++) {
      const value = random.nextDouble();
      if (!(value >= 0 && value < 1)) outside += 1;
      bins[Math.floor(value * 10)]! += 1;
    }
    expect(outside).toBe(0);
    for (const count of bins) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });
});
