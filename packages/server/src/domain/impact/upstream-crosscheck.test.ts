import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeLlmImpacts } from './compute-impact';
import { findElectricityMix } from './electricity-mixes';
import type { EcologitsVersion, LlmImpacts } from './impact-types';
import type { ValueOrRange, ValueRange } from './value-range';

// 160 seeded random inputs (dense, MoE, parameter ranges, PUE/WUE ranges, latency caps, every kind of
// zone) evaluated by the upstream Python library at tags 0.9.1 and 0.8.2; see the file's `about`.
interface CrosscheckCase {
  id: string;
  version: EcologitsVersion;
  zone: string;
  active: ValueOrRange;
  total: ValueOrRange;
  tokens: number;
  latency: number | null;
  pue: ValueOrRange | null;
  wue?: ValueOrRange;
  expected: Record<'energy' | 'gwp' | 'adpe' | 'pe', ValueRange> & {
    wcf?: ValueRange;
    usage: Record<'gwp' | 'adpe' | 'pe', ValueRange>;
    embodied: Record<'gwp' | 'adpe' | 'pe', ValueRange>;
  };
}

const fixture = JSON.parse(readFileSync(new URL('./testdata/upstream-crosscheck.json', import.meta.url), 'utf8')) as {
  cases: CrosscheckCase[];
};

function relativeError(actual: number, expected: number): number {
  return expected === 0 ? Math.abs(actual) : Math.abs(actual - expected) / Math.abs(expected);
}

function fieldsOf(result: LlmImpacts): Array<[string, ValueRange | null]> {
  return [
    ['energy', result.energyKwh],
    ['gwp', result.gwpKgCo2eq.total],
    ['adpe', result.adpeKgSbeq.total],
    ['pe', result.peMj.total],
    ['usage.gwp', result.gwpKgCo2eq.usage],
    ['usage.adpe', result.adpeKgSbeq.usage],
    ['usage.pe', result.peMj.usage],
    ['embodied.gwp', result.gwpKgCo2eq.embodied],
    ['embodied.adpe', result.adpeKgSbeq.embodied],
    ['embodied.pe', result.peMj.embodied],
    ['wcf', result.wcfLitres],
  ];
}

function expectedOf(testCase: CrosscheckCase, field: string): ValueRange | undefined {
  const [phase, key] = field.split('.') as [string, string | undefined];
  const { expected } = testCase;
  if (key === undefined) return (expected as unknown as Record<string, ValueRange | undefined>)[phase];
  return (expected as unknown as Record<string, Record<string, ValueRange>>)[phase]?.[key];
}

describe('cross-check against the upstream library (160 random inputs, both versions)', () => {
  it.each(fixture.cases.map((testCase) => [testCase.id, testCase] as const))('%s', (_id, testCase) => {
    const result = computeLlmImpacts({
      version: testCase.version,
      activeParamsB: testCase.active,
      totalParamsB: testCase.total,
      outputTokens: testCase.tokens,
      requestLatencySeconds: testCase.latency,
      mix: findElectricityMix(testCase.version, testCase.zone),
      pue: testCase.pue ?? 1.2,
      wue: testCase.wue,
    });
    for (const [field, actual] of fieldsOf(result)) {
      const expected = expectedOf(testCase, field);
      if (expected === undefined) {
        expect(actual, field).toBeNull();
        continue;
      }
      expect(actual, field).not.toBeNull();
      expect(relativeError((actual as ValueRange).min, expected.min), `${field}.min`).toBeLessThanOrEqual(1e-9);
      expect(relativeError((actual as ValueRange).max, expected.max), `${field}.max`).toBeLessThanOrEqual(1e-9);
    }
  });

  it('covers ranges, latency caps and both versions', () => {
    const cases = fixture.cases;
    expect(cases.filter((c) => c.version === '0.9.1').length).toBeGreaterThan(50);
    expect(cases.filter((c) => c.version === '0.8.2').length).toBeGreaterThan(50);
    expect(cases.some((c) => typeof c.active === 'object' && typeof c.total === 'number')).toBe(true);
    expect(cases.some((c) => typeof c.total === 'object')).toBe(true);
    expect(cases.some((c) => typeof c.pue === 'object')).toBe(true);
    expect(cases.some((c) => c.latency !== null && c.tokens > 0)).toBe(true);
  });
});
