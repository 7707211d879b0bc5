import { describe, expect, it } from 'vitest';
import { computeLlmImpacts } from './compute-impact';
import { gpuCount0_8_2 } from './ecologits-0-8-2';
import { gpuCount0_9_1 } from './ecologits-0-9-1';
import { electricityMixZones, findElectricityMix } from './electricity-mixes';
import { ECOLOGITS_VERSIONS, type EcologitsVersion, type LlmImpactInput, type LlmImpacts } from './impact-types';
import type { ValueOrRange, ValueRange } from './value-range';
import { seededRandom } from '../../../test/seeded-random';

const random = seededRandom(4);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const between = (low: number, high: number) => low + random() * (high - low);

function randomInput(version: EcologitsVersion): LlmImpactInput {
  const total = between(0.3, 2500);
  const active = random() < 0.5 ? total : between(0.05, total);
  const ranged = random() < 0.3;
  return {
    version,
    activeParamsB: ranged ? { min: active * 0.5, max: active } : active,
    totalParamsB: ranged && random() < 0.5 ? { min: total * 0.8, max: total } : total,
    outputTokens: Math.floor(between(0, 20000)),
    requestLatencySeconds: random() < 0.5 ? null : between(0, 400),
    mix: findElectricityMix(version, pick(electricityMixZones(version))),
    pue: random() < 0.3 ? { min: 1.09, max: between(1.09, 1.6) } : between(1, 1.6),
    wue: random() < 0.3 ? { min: 0.1, max: between(0.1, 2) } : between(0, 2),
  };
}

function allRanges(result: LlmImpacts): ValueRange[] {
  const phased = [result.gwpKgCo2eq, result.adpeKgSbeq, result.peMj].flatMap((impact) => [impact.total, impact.usage, impact.embodied]);
  return [result.energyKwh, ...phased, ...(result.wcfLitres ? [result.wcfLitres] : [])];
}

const inputs = ECOLOGITS_VERSIONS.flatMap((version) => Array.from({ length: 300 }, () => randomInput(version)));

describe('properties of the impact model (300 seeded random inputs per version)', () => {
  it('always gives ranges with min ≤ max, finite and non-negative', () => {
    for (const input of inputs) {
      for (const range of allRanges(computeLlmImpacts(input))) {
        expect(Number.isFinite(range.min) && Number.isFinite(range.max)).toBe(true);
        expect(range.min).toBeGreaterThanOrEqual(0);
        expect(range.min).toBeLessThanOrEqual(range.max);
      }
    }
  });

  it('gives zero for zero output tokens, with or without a latency cap', () => {
    for (const input of inputs) {
      for (const range of allRanges(computeLlmImpacts({ ...input, outputTokens: 0 }))) {
        expect(range).toEqual({ min: 0, max: 0 });
      }
    }
  });

  it('grows with output tokens (never decreases; strictly without a latency cap)', () => {
    for (const input of inputs) {
      const smaller = computeLlmImpacts(input);
      const larger = computeLlmImpacts({ ...input, outputTokens: input.outputTokens + 1 + Math.floor(random() * 500) });
      const uncapped = { ...input, requestLatencySeconds: null };
      allRanges(larger).forEach((range, index) => {
        const before = allRanges(smaller)[index] as ValueRange;
        expect(range.min).toBeGreaterThanOrEqual(before.min);
        expect(range.max).toBeGreaterThanOrEqual(before.max);
      });
      const energyBefore = computeLlmImpacts(uncapped).energyKwh;
      const energyAfter = computeLlmImpacts({ ...uncapped, outputTokens: input.outputTokens + 1 }).energyKwh;
      expect(energyAfter.min).toBeGreaterThan(energyBefore.min);
    }
  });

  it('never decreases with active parameters at a fixed GPU count (fixed total)', () => {
    for (const input of inputs) {
      const total = typeof input.totalParamsB === 'number' ? input.totalParamsB : input.totalParamsB.max;
      const lower = between(0.01, total);
      const higher = between(lower, total);
      const at = (active: number) => allRanges(computeLlmImpacts({ ...input, activeParamsB: active, totalParamsB: total }));
      const [low, high] = [at(lower), at(higher)];
      high.forEach((range, index) => {
        expect(range.min).toBeGreaterThanOrEqual((low[index] as ValueRange).min);
        expect(range.max).toBeGreaterThanOrEqual((low[index] as ValueRange).max);
      });
    }
  });

  it('never decreases with the size of a dense model while its GPU count stays the same', () => {
    for (const version of ECOLOGITS_VERSIONS) {
      const gpuCount = version === '0.9.1' ? gpuCount0_9_1 : gpuCount0_8_2;
      for (let step = 0; step < 300; step += 1) {
        const small = between(0.3, 2500);
        const large = small * between(1, 1.5);
        if (gpuCount(small) !== gpuCount(large)) continue;
        const input = randomInput(version);
        const energy = (size: ValueOrRange) => computeLlmImpacts({ ...input, activeParamsB: size, totalParamsB: size }).energyKwh;
        expect(energy(large).min).toBeGreaterThanOrEqual(energy(small).min);
        expect(energy(large).max).toBeGreaterThanOrEqual(energy(small).max);
      }
    }
  });

  it('gives a wider or equal range when a parameter count becomes a range around it', () => {
    for (const input of inputs.filter((candidate) => typeof candidate.activeParamsB === 'number')) {
      const active = input.activeParamsB as number;
      const point = computeLlmImpacts(input).energyKwh;
      const ranged = computeLlmImpacts({ ...input, activeParamsB: { min: active / 2, max: active } }).energyKwh;
      expect(ranged.min).toBeLessThanOrEqual(point.min);
      expect(ranged.max).toBe(point.max);
    }
  });
});
