import { describe, expect, it } from 'vitest';
import { drawPair, pairWeights, type PairingCandidate } from './sampling-weights';
import { createSeededRandom } from './seeded-random';

const candidates: PairingCandidate[] = [
  { model: 'old', nBattles: 10_000, ciLow: 1000, ciHigh: 1020 },
  { model: 'mid', nBattles: 1_000, ciLow: 1010, ciHigh: 1050 },
  { model: 'new', nBattles: 0 },
  { model: 'down', nBattles: 5, available: false },
];
const total = (weights: { weight: number }[]) => weights.reduce((sum, pair) => sum + pair.weight, 0);
const weightOf = (weights: ReturnType<typeof pairWeights>, a: string, b: string) =>
  weights.find((pair) => (pair.modelA === a && pair.modelB === b) || (pair.modelA === b && pair.modelB === a))!.weight;

describe('pairWeights', () => {
  it('uniform: every pair of available models alike', () => {
    const weights = pairWeights(candidates, { mode: 'uniform' });
    expect(weights).toHaveLength(3);
    for (const pair of weights) expect(pair.weight).toBeCloseTo(1 / 3, 12);
  });

  it('catch_up: w ∝ (n + s)^−α capped at maxRatio·min, two-stage draw probabilities', () => {
    const weights = pairWeights(candidates, { mode: 'catch_up', alpha: 0.5, smoothing: 1, maxRatio: 5 });
    expect(total(weights)).toBeCloseTo(1, 12);
    const raw = [10_001, 1_001, 1].map((n) => n ** -0.5);
    const capped = raw.map((w) => Math.min(w, 5 * Math.min(...raw)));
    const p = capped.map((w) => w / capped.reduce((a, b) => a + b, 0));
    const pair = (i: number, j: number) => p[i]! * p[j]! * (1 / (1 - p[i]!) + 1 / (1 - p[j]!));
    expect(weightOf(weights, 'old', 'new')).toBeCloseTo(pair(0, 2), 12);
    expect(weightOf(weights, 'mid', 'new')).toBeGreaterThan(weightOf(weights, 'old', 'mid'));
  });

  it('most_informative: overlapping intervals first, every pair keeps a floor, ratio capped', () => {
    const weights = pairWeights(
      [
        { model: 'a', nBattles: 10, ciLow: 1000, ciHigh: 1040 },
        { model: 'b', nBattles: 10, ciLow: 1010, ciHigh: 1050 },
        { model: 'c', nBattles: 10, ciLow: 1200, ciHigh: 1240 },
      ],
      { mode: 'most_informative', floor: 0.1, maxRatio: 100 },
    );
    expect(weightOf(weights, 'a', 'b') / weightOf(weights, 'a', 'c')).toBeCloseTo((0.1 + 0.75) / 0.1, 9);
    expect(weightOf(weights, 'a', 'c')).toBeGreaterThan(0);
    const capped = pairWeights(
      [
        { model: 'a', nBattles: 1, ciLow: 0, ciHigh: 1 },
        { model: 'b', nBattles: 1, ciLow: 0, ciHigh: 1 },
        { model: 'c', nBattles: 1, ciLow: 5, ciHigh: 6 },
      ],
      { mode: 'most_informative', floor: 0.01, maxRatio: 4 },
    );
    expect(weightOf(capped, 'a', 'b') / weightOf(capped, 'a', 'c')).toBeCloseTo(4, 9);
  });

  it('respects disallowed pairs', () => {
    const weights = pairWeights(candidates, { mode: 'uniform', isAllowed: (a, b) => !(a === 'old' && b === 'mid') });
    expect(weights.map((pair) => `${pair.modelA}-${pair.modelB}`)).toEqual(['old-new', 'mid-new']);
  });
});

describe('drawPair', () => {
  it('draws pairs in proportion and swaps A/B with a fair coin', () => {
    const weights = pairWeights(candidates, { mode: 'catch_up' });
    const random = createSeededRandom(12);
    const counts = new Map<string, number>();
    let oldOnA = 0;
    let oldDrawn = 0;
    const draws = 60_000;
    for (let draw = 0; draw < draws; draw++) {
      const pair = drawPair(weights, random)!;
      const key = [pair.modelA, pair.modelB].sort().join('-');
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (pair.modelA === 'old' || pair.modelB === 'old') {
        oldDrawn += 1;
        if (pair.modelA === 'old') oldOnA += 1;
      }
    }
    for (const pair of weights) {
      const key = [pair.modelA, pair.modelB].sort().join('-');
      expect(Math.abs(counts.get(key)! / draws - pair.weight)).toBeLessThan(0.01);
    }
    expect(Math.abs(oldOnA / oldDrawn - 0.5)).toBeLessThan(0.02);
    expect(drawPair([], random)).toBeUndefined();
  });
});
