import { describe, expect, it } from 'vitest';
import { energyClassOf, energyClassThresholds, energyRatio, quantile } from './energy-class';

describe('energy classes A–E', () => {
  it('take the thresholds at the 20, 40, 60 and 80 % quantiles, as R’s quantile(type = 7) gives them', () => {
    // R: quantile(c(1, 2, 4, 8, 16), c(0.2, 0.4, 0.6, 0.8)) → 1.8 3.2 5.6 9.6
    const thresholds = energyClassThresholds([16, 4, 1, 8, 2])!;
    expect(thresholds.map((value) => Number(value.toFixed(10)))).toEqual([1.8, 3.2, 5.6, 9.6]);
    expect(quantile([1, 2, 4, 8, 16], 0)).toBe(1);
    expect(quantile([1, 2, 4, 8, 16], 1)).toBe(16);
    expect(quantile([3], 0.5)).toBe(3);
  });

  it('give each fifth of the catalogue its class, a threshold belonging to the better class', () => {
    const thresholds = energyClassThresholds([16, 4, 1, 8, 2])!;
    expect([1, 2, 4, 8, 16].map((wh) => energyClassOf(wh, thresholds))).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(energyClassOf(1.8, thresholds)).toBe('A');
    expect(energyClassOf(1.8000001, thresholds)).toBe('B');
    expect(energyClassOf(0, thresholds)).toBe('A');
    expect(energyClassOf(1000, thresholds)).toBe('E');
  });

  it('say nothing of one model, or of models that all spend the same, and ignore values that are no energy', () => {
    expect(energyClassThresholds([])).toBeUndefined();
    expect(energyClassThresholds([0.4])).toBeUndefined();
    expect(energyClassThresholds([0.4, 0.4, 0.4])).toBeUndefined();
    expect(energyClassThresholds([Number.NaN, -1, 1, 2])).toEqual(energyClassThresholds([1, 2]));
  });

  it('compare two sides by their ranges’ midpoints', () => {
    expect(energyRatio({ min: 3, max: 3.8 }, { min: 1, max: 1 })).toBeCloseTo(3.4, 10);
    expect(energyRatio({ min: 0.1, max: 0.3 }, { min: 0.4, max: 0.4 })).toBeCloseTo(0.5, 10);
    expect(energyRatio({ min: 0, max: 0 }, { min: 1, max: 1 })).toBeUndefined();
  });
});
