import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IMPACT_VECTORS } from '../../../test/reference-fixtures';
import { computeLlmImpacts } from './compute-impact';
import type { EcologitsVersion, LlmImpacts } from './impact-types';
import type { ValueRange } from './value-range';

interface VectorCase {
  id: string;
  ecologits_version: EcologitsVersion;
  inputs: {
    active_params_b: number | ValueRange;
    total_params_b: number | ValueRange;
    output_tokens: number;
    request_latency_s: number | null;
    electricity_mix: { adpe: number; pe: number; gwp: number; wue?: number };
    datacenter_pue: number | ValueRange;
    datacenter_wue: number | ValueRange | null;
  };
  intermediates_per_run: Array<{
    model_required_memory_gb: number;
    gpu_required_count: number;
    generation_latency_s: ValueRange;
    gpu_energy_kwh_per_gpu: ValueRange;
    server_energy_kwh: ValueRange;
  }>;
  expected: {
    energy: ValueRange;
    gwp: ValueRange;
    adpe: ValueRange;
    pe: ValueRange;
    wcf?: ValueRange;
    usage: { gwp: ValueRange; adpe: ValueRange; pe: ValueRange; wcf?: ValueRange };
    embodied: { gwp: ValueRange; adpe: ValueRange; pe: ValueRange };
  };
}

const vectors = JSON.parse(readFileSync(IMPACT_VECTORS, 'utf8')) as { tolerance: { relative: number }; cases: VectorCase[] };
const tolerance = vectors.tolerance.relative;

function expectClose(actual: number, expected: number, label: string): void {
  const scale = Math.max(Math.abs(expected), Number.MIN_VALUE);
  expect(Math.abs(actual - expected) / scale, `${label}: ${actual} vs ${expected}`).toBeLessThanOrEqual(tolerance);
}

function expectRange(actual: ValueRange | null, expected: ValueRange, label: string): void {
  expect(actual, label).not.toBeNull();
  expectClose((actual as ValueRange).min, expected.min, `${label}.min`);
  expectClose((actual as ValueRange).max, expected.max, `${label}.max`);
}

function computeCase(testCase: VectorCase): LlmImpacts {
  const { inputs } = testCase;
  return computeLlmImpacts({
    version: testCase.ecologits_version,
    activeParamsB: inputs.active_params_b,
    totalParamsB: inputs.total_params_b,
    outputTokens: inputs.output_tokens,
    requestLatencySeconds: inputs.request_latency_s,
    mix: { ...inputs.electricity_mix, wue: inputs.electricity_mix.wue ?? null },
    pue: inputs.datacenter_pue,
    wue: inputs.datacenter_wue ?? undefined,
  });
}

describe('EcoLogits development vectors (relative 1e-9)', () => {
  it('reads the vectors copied into the repository (test/fixtures/reference)', () => {
    expect(vectors.cases.length).toBeGreaterThanOrEqual(8);
    expect(new Set(vectors.cases.map((testCase) => testCase.ecologits_version))).toEqual(new Set(['0.9.1', '0.8.2']));
  });

  for (const testCase of vectors.cases) {
    it(`${testCase.id}: totals, usage and embodied`, () => {
      const result = computeCase(testCase);
      const { expected } = testCase;
      expectRange(result.energyKwh, expected.energy, 'energy');
      expectRange(result.gwpKgCo2eq.total, expected.gwp, 'gwp');
      expectRange(result.adpeKgSbeq.total, expected.adpe, 'adpe');
      expectRange(result.peMj.total, expected.pe, 'pe');
      expectRange(result.gwpKgCo2eq.usage, expected.usage.gwp, 'usage.gwp');
      expectRange(result.adpeKgSbeq.usage, expected.usage.adpe, 'usage.adpe');
      expectRange(result.peMj.usage, expected.usage.pe, 'usage.pe');
      expectRange(result.gwpKgCo2eq.embodied, expected.embodied.gwp, 'embodied.gwp');
      expectRange(result.adpeKgSbeq.embodied, expected.embodied.adpe, 'embodied.adpe');
      expectRange(result.peMj.embodied, expected.embodied.pe, 'embodied.pe');
      if (expected.wcf) expectRange(result.wcfLitres, expected.wcf, 'wcf');
      else expect(result.wcfLitres).toBeNull();
    });

    it(`${testCase.id}: per-run intermediates`, () => {
      const result = computeCase(testCase);
      expect(result.runs).toHaveLength(testCase.intermediates_per_run.length);
      testCase.intermediates_per_run.forEach((expected, index) => {
        const run = result.runs[index];
        if (run === undefined) throw new Error(`missing run ${index}`);
        expectClose(run.modelRequiredMemoryGb, expected.model_required_memory_gb, 'memory');
        expect(run.gpuRequiredCount).toBe(expected.gpu_required_count);
        expectRange(run.generationLatencySeconds, expected.generation_latency_s, 'latency');
        expectRange(run.gpuEnergyKwh, expected.gpu_energy_kwh_per_gpu, 'gpu energy');
        expectRange(run.serverEnergyKwh, expected.server_energy_kwh, 'server energy');
      });
    });
  }
});
