import { describe, expect, it } from 'vitest';
import { computeLlmImpacts } from './compute-impact';
import { DATACENTER_PROVIDERS } from './datacenter-providers';
import { gpuCount0_8_2 } from './ecologits-0-8-2';
import { gpuCount0_9_1 } from './ecologits-0-9-1';
import { electricityMixZones, findElectricityMix } from './electricity-mixes';
import { estimateImpact } from './estimate-impact';
import { ImpactError, type ImpactErrorCode } from './impact-error';
import type { LlmImpactInput } from './impact-types';
import { moeActiveRange, resolveParameterCounts } from './model-parameters';
import { resolveImpactSettings } from './resolve-impact-settings';

function expectImpactError(action: () => unknown, code: ImpactErrorCode): void {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ImpactError);
    expect((error as ImpactError).code).toBe(code);
    expect((error as ImpactError).message).not.toMatch(/\n/);
    return;
  }
  throw new Error(`expected ImpactError ${code}`);
}

describe('GPU-count rules', () => {
  it.each([
    [8, 1, 1],
    [33.33, 1, 1],
    [33.34, 2, 1],
    [66.67, 4, 1],
    [70, 4, 1],
    [133.33, 4, 1],
    [134, 8, 2],
    [266.67, 16, 3],
    [405, 16, 4],
    [533.33, 16, 4],
    [671, 32, 6],
    [1000, 32, 8],
    [2133.33, 64, 16],
  ])('%f B → %d GPUs in 0.9.1 (power of two, 16-bit), %d in 0.8.2 (ceiling, 4-bit)', (total, in091, in082) => {
    expect(gpuCount0_9_1(total)).toBe(in091);
    expect(gpuCount0_8_2(total)).toBe(in082);
  });
});

describe('electricity mixes shipped as data', () => {
  it('has every zone of both versions', () => {
    expect(electricityMixZones('0.9.1')).toHaveLength(50);
    expect(electricityMixZones('0.8.2')).toHaveLength(138);
    expect(electricityMixZones('0.8.2')).toContain('EEE');
    expect(electricityMixZones('0.9.1')).not.toContain('EEE');
  });

  it.each([
    ['0.9.1', 'WOR', { gwp: 0.47301, adpe: 1.349e-8, pe: 2.5871, wue: 3.908 }],
    ['0.9.1', 'FRA', { gwp: 0.04418, adpe: 4.858e-8, pe: 9.3135, wue: 3.6737 }],
    ['0.9.1', 'SWE', { gwp: 0.03582, adpe: 7.771e-8, pe: 4.7301, wue: 6.0315 }],
    ['0.8.2', 'WOR', { gwp: 0.590478, adpe: 7.37708e-8, pe: 9.988, wue: null }],
    ['0.8.2', 'FRA', { gwp: 0.0800844, adpe: 4.85798e-8, pe: 9.31353, wue: null }],
    ['0.8.2', 'EEE', { gwp: 0.509427, adpe: 6.42317e-8, pe: 12.873, wue: null }],
  ] as const)('%s %s matches the spec table', (version, zone, factors) => {
    expect(findElectricityMix(version, zone)).toEqual(factors);
  });

  it('accepts lower-case codes and rejects unknown zones with a typed error', () => {
    expect(findElectricityMix('0.9.1', 'fra').gwp).toBe(0.04418);
    expectImpactError(() => findElectricityMix('0.9.1', 'EEE'), 'zone_not_registered');
    expectImpactError(() => findElectricityMix('0.8.2', 'XXX'), 'zone_not_registered');
    expectImpactError(() => findElectricityMix('0.8.2', 'toString'), 'zone_not_registered');
  });
});

describe('parameter counts and the unknown-size rule', () => {
  it('refuses a model without parameter count', () => {
    expectImpactError(() => resolveParameterCounts({ params_b: null, active_params_b: 12 }), 'unknown_model_size');
    expectImpactError(() => resolveParameterCounts({ params_b: undefined }), 'unknown_model_size');
  });

  it('gives an MoE without active count the 10–30 % active range', () => {
    expect(moeActiveRange(440)).toEqual({ min: 44, max: 132 });
    expect(moeActiveRange(300)).toEqual({ min: 30, max: 90 });
    expect(resolveParameterCounts({ params_b: 440, active_params_b: null, arch: 'moe' })).toEqual({
      activeParamsB: { min: 44, max: 132 },
      totalParamsB: 440,
    });
  });

  it('sizes dense, matformer and unknown architectures without active count as dense', () => {
    for (const arch of ['dense', 'matformer', 'unknown'] as const) {
      expect(resolveParameterCounts({ params_b: 8, arch })).toEqual({ activeParamsB: 8, totalParamsB: 8 });
    }
    expect(resolveParameterCounts({ params_b: 8, active_params_b: 4, arch: 'matformer' })).toEqual({
      activeParamsB: 4,
      totalParamsB: 8,
    });
  });

  it('rejects zero, negative, non-finite counts and inverted ranges', () => {
    for (const params_b of [0, -3, Number.NaN, Infinity, { min: 10, max: 5 }]) {
      expectImpactError(() => resolveParameterCounts({ params_b }), 'invalid_parameters');
    }
    expectImpactError(() => resolveParameterCounts({ params_b: 8, active_params_b: -1 }), 'invalid_parameters');
  });
});

describe('zone, PUE and WUE resolution', () => {
  it('uses the provider data centre in 0.9.1 (docs/impact.md#data-centres)', () => {
    const settings = resolveImpactSettings({ params_b: 24, provider: 'mistralai' });
    expect(settings).toMatchObject({ version: '0.9.1', method: 'ecologits-0.9.1', zone: 'SWE', pue: 1.16, wue: 0.09 });
    expect(resolveImpactSettings({ params_b: 24, provider: 'anthropic' })).toMatchObject({
      zone: 'USA',
      pue: { min: 1.09, max: 1.14 },
      wue: { min: 0.13, max: 0.999 },
    });
    expect(Object.keys(DATACENTER_PROVIDERS)).toHaveLength(6);
  });

  it('lets an explicit zone, PUE and WUE override the provider', () => {
    const settings = resolveImpactSettings({ params_b: 24, provider: 'openai' }, { zone: 'fra', pue: 1.1, wue: 0.2 });
    expect(settings).toMatchObject({ zone: 'FRA', pue: 1.1, wue: 0.2, mix: findElectricityMix('0.9.1', 'FRA') });
  });

  it('falls back to the world mix, PUE 1.2 and no on-site water without provider', () => {
    expect(resolveImpactSettings({ params_b: 8 })).toMatchObject({ zone: 'WOR', pue: 1.2, wue: 0 });
  });

  it('ignores the provider in 0.8.2 (PUE 1.2 for everybody, no water)', () => {
    const settings = resolveImpactSettings({ params_b: 8, provider: 'mistralai' }, { method: '0.8.2', wue: 3 });
    expect(settings).toMatchObject({ version: '0.8.2', method: 'ecologits-0.8.2', zone: 'WOR', pue: 1.2, wue: null });
  });

  it('accepts method labels as well as versions', () => {
    expect(resolveImpactSettings({ params_b: 8 }, { method: 'ecologits-0.8.2' }).method).toBe('ecologits-0.8.2');
    expect(resolveImpactSettings({ params_b: 8 }, { method: 'ecologits-0.9.1' }).version).toBe('0.9.1');
    expect(resolveImpactSettings({ params_b: 3.8 }, { method: 'comparia-compat' })).toMatchObject({
      method: 'comparia-compat',
      totalParamsB: 3,
    });
    expect(resolveImpactSettings({ params_b: 8 }, { compat: true }).method).toBe('comparia-compat');
    expect(resolveImpactSettings({ params_b: 8 }, { compat: 'comparia', method: 'ecologits-0.8.2' }).zone).toBe('WOR');
    expectImpactError(() => resolveImpactSettings({ params_b: 8 }, { compat: true, method: 'ecologits-0.9.1' }), 'incompatible_options');
  });

  it('rejects unknown providers, zones and methods with typed errors', () => {
    expectImpactError(() => resolveImpactSettings({ params_b: 8, provider: 'acme' }), 'unknown_provider');
    expectImpactError(() => resolveImpactSettings({ params_b: 8 }, { zone: 'EEE' }), 'zone_not_registered');
    expect(resolveImpactSettings({ params_b: 8 }, { zone: 'EEE', method: '0.8.2' }).zone).toBe('EEE');
    expectImpactError(() => resolveImpactSettings({ params_b: 8 }, { method: '0.9.2' as unknown as '0.9.1' }), 'unknown_method');
  });
});

describe('invalid inputs are typed errors, never NaN', () => {
  const valid: LlmImpactInput = {
    version: '0.9.1',
    activeParamsB: 8,
    totalParamsB: 8,
    outputTokens: 100,
    mix: findElectricityMix('0.9.1', 'WOR'),
    pue: 1.2,
    wue: 0,
  };

  it.each([
    ['negative tokens', { outputTokens: -1 }, 'invalid_tokens'],
    ['NaN tokens', { outputTokens: Number.NaN }, 'invalid_tokens'],
    ['infinite tokens', { outputTokens: Infinity }, 'invalid_tokens'],
    ['zero total parameters', { totalParamsB: 0 }, 'invalid_parameters'],
    ['NaN active parameters', { activeParamsB: Number.NaN }, 'invalid_parameters'],
    ['inverted range', { activeParamsB: { min: 9, max: 3 } }, 'invalid_parameters'],
    ['negative latency', { requestLatencySeconds: -2 }, 'invalid_latency'],
    ['NaN latency', { requestLatencySeconds: Number.NaN }, 'invalid_latency'],
    ['PUE below 1', { pue: 0.9 }, 'invalid_datacenter'],
    ['negative WUE', { wue: -0.1 }, 'invalid_datacenter'],
    ['inverted PUE range', { pue: { min: 1.3, max: 1.1 } }, 'invalid_datacenter'],
    ['0.9.1 mix without water', { mix: findElectricityMix('0.8.2', 'WOR') }, 'invalid_electricity_mix'],
    ['unknown version', { version: '1.0' }, 'unknown_method'],
  ] as Array<[string, Partial<LlmImpactInput>, ImpactErrorCode]>)('%s', (_name, change, code) => {
    expectImpactError(() => computeLlmImpacts({ ...valid, ...change }), code);
  });

  it('treats an infinite or absent latency as not measured', () => {
    const reference = computeLlmImpacts(valid);
    expect(computeLlmImpacts({ ...valid, requestLatencySeconds: Infinity })).toEqual(reference);
    expect(computeLlmImpacts({ ...valid, requestLatencySeconds: null })).toEqual(reference);
  });
});

describe('docs/impact.md#version-comparison: mean energy and GWP per 1,000 output tokens (WOR, PUE 1.2, WUE 0, no cap)', () => {
  it.each([
    [1, 1, 2.786, 0.0807, 1.721, 0.044],
    [8, 8, 3.768, 0.0892, 2.319, 0.0487],
    [24, 24, 6.013, 0.1086, 3.687, 0.0594],
    [70, 70, 12.469, 0.6575, 7.62, 0.3614],
    [123, 123, 19.907, 0.9148, 12.152, 0.5039],
    [405, 405, 237.926, 9.1338, 145.051, 5.0482],
    [37, 671, 47.026, 3.9789, 28.792, 2.181],
    [17, 400, 15.093, 1.6012, 9.266, 0.8754],
    [5, 117, 3.347, 0.342, 2.063, 0.1866],
    [32, 1000, 57.088, 3.7848, 34.969, 2.0735],
  ])('%d / %d B', (active, total, wh082, wh091, g082, g091) => {
    const model = { params_b: total, active_params_b: active };
    const mean = (range: { min: number; max: number }) => ((range.min + range.max) / 2) * 1000;
    const old = estimateImpact(model, 1000, { method: '0.8.2' }).impacts;
    const current = estimateImpact(model, 1000, { method: '0.9.1' }).impacts;
    expect(mean(old.energyKwh)).toBeCloseTo(wh082, 2);
    expect(mean(current.energyKwh)).toBeCloseTo(wh091, 3);
    expect(mean(old.gwpKgCo2eq.total)).toBeCloseTo(g082, 2);
    expect(mean(current.gwpKgCo2eq.total)).toBeCloseTo(g091, 3);
  });
});
