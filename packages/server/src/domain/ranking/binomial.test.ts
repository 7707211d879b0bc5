import { describe, expect, it } from 'vitest';
import { sampleBinomial, sampleMultinomial } from './binomial';
import { createSeededRandom } from './seeded-random';

/** ln n!, exact sum below 30, Stirling's series above (error < 1e-13). */
function logFactorial(n: number): number {
  if (n < 30) {
    let sum = 0;
    for (let k = 2; k <= n; k++) sum += Math.log(k);
    return sum;
  }
  return n * Math.log(n) - n + 0.5 * Math.log(2 * Math.PI * n) + 1 / (12 * n) - 1 / (360 * n ** 3);
}

describe('sampleBinomial', () => {
  it.each([
    [20, 0.3],
    [100, 0.05],
    [400, 0.5],
    [2_500_000, 0.00002],
    [60, 0.9],
  ])('matches Binomial(%i, %f) in mean, variance and a chi-square test', (n, p) => {
    const random = createSeededRandom(n);
    const draws = 100_000;
    const counts = new Map<number, number>();
    let sum = 0;
    let squares = 0;
    let invalid = 0;
    for (let draw = 0; draw < draws; draw++) {
      const x = sampleBinomial(n, p, random);
      if (!(Number.isInteger(x) && x >= 0 && x <= n)) invalid += 1;
      sum += x;
      squares += x * x;
      counts.set(x, (counts.get(x) ?? 0) + 1);
    }
    expect(invalid).toBe(0);
    const mean = sum / draws;
    const variance = squares / draws - mean * mean;
    expect(Math.abs(mean - n * p)).toBeLessThan(5 * Math.sqrt((n * p * (1 - p)) / draws));
    expect(variance / (n * p * (1 - p))).toBeGreaterThan(0.97);
    expect(variance / (n * p * (1 - p))).toBeLessThan(1.03);
    // chi-square over cells with expected count ≥ 20
    const logBase = logFactorial(n);
    let chi = 0;
    let bins = 0;
    const sd = Math.sqrt(n * p * (1 - p));
    for (let k = Math.max(0, Math.floor(n * p - 6 * sd)); k <= Math.min(n, Math.ceil(n * p + 6 * sd)); k++) {
      const logPmf = logBase - logFactorial(k) - logFactorial(n - k) + k * Math.log(p) + (n - k) * Math.log1p(-p);
      const expected = draws * Math.exp(logPmf);
      if (expected < 20) continue;
      chi += ((counts.get(k) ?? 0) - expected) ** 2 / expected;
      bins += 1;
    }
    // far beyond the 99.9 % quantile of chi-square(bins) only if the sampler is wrong
    expect(chi).toBeLessThan(bins + 5 * Math.sqrt(2 * bins));
  });

  it('handles the edges', () => {
    const random = createSeededRandom(1);
    expect(sampleBinomial(0, 0.5, random)).toBe(0);
    expect(sampleBinomial(10, 0, random)).toBe(0);
    expect(sampleBinomial(10, 1, random)).toBe(10);
  });
});

describe('sampleMultinomial', () => {
  it('draws exactly `total` votes, never from an empty cell, with the right means', () => {
    const random = createSeededRandom(4);
    const weights = new Float64Array([5, 0, 10, 85, 0]);
    const out = new Float64Array(5);
    const sums = new Float64Array(5);
    let wrongTotals = 0;
    for (let round = 0; round < 20_000; round++) {
      sampleMultinomial(100, weights, out, random);
      if (out.reduce((a, b) => a + b, 0) !== 100) wrongTotals += 1;
      out.forEach((value, index) => {
        sums[index]! += value;
      });
    }
    expect(wrongTotals).toBe(0);
    expect([sums[1], sums[4]]).toEqual([0, 0]);
    expect(sums[0]! / 20_000).toBeCloseTo(5, 1);
    expect(sums[2]! / 20_000).toBeCloseTo(10, 1);
    expect(sums[3]! / 20_000).toBeCloseTo(85, 1);
  });
});
