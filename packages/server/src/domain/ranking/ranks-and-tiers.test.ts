import { describe, expect, it } from 'vitest';
import { competitionRanks, overlapTiers, rankBoundsFromIntervals } from './ranks-and-tiers';

describe('rank bounds from interval overlap', () => {
  const low = [1090, 1060, 1055, 900];
  const high = [1110, 1100, 1070, 950];

  it('gives best = 1 + #{lower_j > upper_i} and worst = N − #{upper_j < lower_i}', () => {
    const { best, worst } = rankBoundsFromIntervals(low, high);
    expect([...best]).toEqual([1, 1, 2, 4]);
    expect([...worst]).toEqual([2, 3, 3, 4]);
  });

  it('ranks only the included models', () => {
    const { best, worst } = rankBoundsFromIntervals(low, high, [1, 0, 1, 1]);
    expect([...best]).toEqual([1, 0, 2, 3]);
    expect([...worst]).toEqual([1, 0, 2, 3]);
  });

  it('shares competition ranks on equal ratings', () => {
    expect([...competitionRanks([1000, 1010, 1000, 990])]).toEqual([2, 1, 2, 4]);
  });

  it('builds tiers greedily from the top: a model joins while it overlaps the tier leader', () => {
    const ratings = [1100, 1080, 1062, 925];
    expect([...overlapTiers(ratings, low, high)]).toEqual([1, 1, 2, 3]);
  });
});
