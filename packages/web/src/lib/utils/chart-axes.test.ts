import { describe, expect, it } from 'vitest';
import { niceTicks, spreadLabels } from './chart-axes';

describe('chart axes', () => {
  it.each([
    [943.7, 1087.2, 4, [900, 950, 1000, 1050, 1100]],
    [0, 0.0173, 4, [0, 0.005, 0.01, 0.015, 0.02]],
    [0, 1.1, 4, [0, 0.5, 1, 1.5]],
    [1000, 1000, 4, [1000, 1000.5, 1001]],
    [12, 87, 3, [0, 50, 100]],
  ])('ticks of [%f, %f] in about %i steps', (min, max, count, ticks) => {
    expect(niceTicks(min, max, count)).toEqual(ticks);
  });

  it('covers the data and steps by 1, 2 or 5 × 10^k', () => {
    for (const [min, max] of [
      [3.3, 7.9],
      [-14, 260],
      [0.0012, 0.0456],
    ] as const) {
      const ticks = niceTicks(min, max);
      expect(ticks[0]!).toBeLessThanOrEqual(min);
      expect(ticks.at(-1)!).toBeGreaterThanOrEqual(max);
      const step = ticks[1]! - ticks[0]!;
      const mantissa = Number((step / 10 ** Math.floor(Math.log10(step))).toFixed(6));
      expect([1, 2, 5]).toContain(mantissa);
    }
    expect(niceTicks(Number.NaN, 1)).toEqual([]);
  });

  it('moves labels apart by the gap, as little as possible, inside the bounds', () => {
    expect(spreadLabels([50, 52, 100], 12, 0, 200)).toEqual([50, 62, 100]);
    // Order of the input is kept; the lowest wish stays put.
    expect(spreadLabels([52, 50], 12, 0, 200)).toEqual([62, 50]);
    // Against the bottom edge, the stack is pulled back up.
    expect(spreadLabels([195, 196, 197], 10, 0, 200)).toEqual([180, 190, 200]);
    const spread = spreadLabels([10, 10, 10, 10], 13, 0, 300).sort((a, b) => a - b);
    for (let i = 1; i < spread.length; i++) expect(spread[i]! - spread[i - 1]!).toBeGreaterThanOrEqual(13);
  });
});
