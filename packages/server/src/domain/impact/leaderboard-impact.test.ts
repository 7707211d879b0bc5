import { describe, expect, it } from 'vitest';
import { estimateImpact } from './estimate-impact';
import { ImpactError } from './impact-error';
import { meanEnergyPerDuel, meanEnergyPerDuelByModel, whPer1000OutputTokens, whPerMillionOutputTokens } from './leaderboard-impact';

describe('Wh per output tokens for the leaderboard', () => {
  it('is the energy of a million tokens in Wh, per thousand for the column', () => {
    const model = { params_b: 8 };
    const perMillion = whPerMillionOutputTokens(model);
    const direct = estimateImpact(model, 1_000_000).impacts.energyKwh;
    expect(perMillion.min).toBe(direct.min * 1000);
    const perThousand = whPer1000OutputTokens(model);
    expect(perThousand.mean).toBeCloseTo(0.0892, 4);
    expect(perThousand.mean).toBeCloseTo(estimateImpact(model, 1000).impacts.energyKwh.min * 1000, 12);
  });

  it('follows the method and gives a band for 0.8.2 and for uncertain sizes', () => {
    const old = whPer1000OutputTokens({ params_b: 8 }, { method: '0.8.2' });
    expect(old.mean).toBeCloseTo(3.768, 3);
    expect(old.min).toBeLessThan(old.max);
    const moe = whPer1000OutputTokens({ params_b: 300, arch: 'moe' });
    expect(moe.min).toBeLessThan(moe.max);
    expect(() => whPer1000OutputTokens({ params_b: null })).toThrow(ImpactError);
  });
});

describe('mean energy per duel', () => {
  it('averages ranges bound-wise and counts the duels', () => {
    expect(meanEnergyPerDuel([])).toBeNull();
    expect(
      meanEnergyPerDuel([
        { min: 1, max: 3 },
        { min: 3, max: 5 },
      ]),
    ).toEqual({ min: 2, max: 4, mean: 3, duels: 2 });
  });

  it('groups the sides of revealed duels by model', () => {
    const means = meanEnergyPerDuelByModel([
      { modelId: 'a', energyWh: { min: 1, max: 1 } },
      { modelId: 'b', energyWh: { min: 4, max: 6 } },
      { modelId: 'a', energyWh: { min: 3, max: 3 } },
    ]);
    expect(means.get('a')).toEqual({ min: 2, max: 2, mean: 2, duels: 2 });
    expect(means.get('b')).toEqual({ min: 4, max: 6, mean: 5, duels: 1 });
    expect(means.has('c')).toBe(false);
  });
});
