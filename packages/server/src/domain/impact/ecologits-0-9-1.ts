import { ECOLOGITS_0_9_1 as C } from './constants-0-9-1';
import { embodiedImpacts, usageImpacts, type ImpactRun, type RunInput } from './impact-run';
import { addRanges, multiplyRanges, scaleRange, type ValueRange } from './value-range';

// Operations are written in the upstream order so that doubles match the Python library bit for bit.

/** Energy of one GPU for the whole request, kWh (docs/impact.md#formulas-091 (1)). */
export function gpuEnergyKwh0_9_1(activeParamsB: number, outputTokens: number): number {
  let perToken = C.gpuEnergyAlpha * Math.exp(C.gpuEnergyBeta * C.batchSize) * activeParamsB + C.gpuEnergyGamma;
  perToken /= 1000;
  return outputTokens * perToken;
}

/** Generation latency in seconds, capped by the measured request latency (docs/impact.md#formulas-091 (2)). */
export function generationLatency0_9_1(activeParamsB: number, outputTokens: number, requestLatency: number): number {
  const perToken = C.latencyAlpha * activeParamsB + C.latencyBeta * C.batchSize + C.latencyGamma;
  const modelled = outputTokens * perToken;
  return requestLatency < modelled ? requestLatency : modelled;
}

/** Memory needed for the weights, GB: `1.2 · P_t · 16 / 8` (docs/impact.md#formulas-091 (3)). */
export function modelMemoryGb0_9_1(totalParamsB: number): number {
  return (C.memoryOverhead * totalParamsB * C.quantizationBits) / 8;
}

/** GPUs needed, rounded up to a power of two: 1, 2, 4, 8, … (docs/impact.md#formulas-091 (3)); `totalParamsB` must be > 0. */
export function gpuCount0_9_1(totalParamsB: number): number {
  const needed = Math.ceil(modelMemoryGb0_9_1(totalParamsB) / C.gpuMemoryGb);
  let count = 1;
  while (count < needed) count *= 2;
  return count;
}

/** One evaluation of the 0.9.1 graph for one (active, total) parameter pair (docs/impact.md#formulas-091 (1)–(8)). */
export function runEcologits0_9_1(input: RunInput): ImpactRun {
  const { activeParamsB, totalParamsB, outputTokens, mix, pue, wue } = input;
  const gpuEnergy = gpuEnergyKwh0_9_1(activeParamsB, outputTokens);
  const latency = generationLatency0_9_1(activeParamsB, outputTokens, input.requestLatencySeconds);
  const gpuCount = gpuCount0_9_1(totalParamsB);
  const serverEnergy = (latency / 3600) * C.serverPowerKw * (gpuCount / C.serverGpuCount) * (1 / C.batchSize);
  const energy = scaleRange(pue, serverEnergy + gpuCount * gpuEnergy);
  const wcf = multiplyRanges(energy, addRanges(wue, scaleRange(pue, requireWater(mix.wue))));
  const share = (hardware: number): ValueRange => point((latency * hardware) / (C.hardwareLifetimeSeconds * C.batchSize));
  return {
    details: {
      activeParamsB,
      totalParamsB,
      modelRequiredMemoryGb: modelMemoryGb0_9_1(totalParamsB),
      gpuRequiredCount: gpuCount,
      generationLatencySeconds: point(latency),
      gpuEnergyKwh: point(gpuEnergy),
      serverEnergyKwh: point(serverEnergy),
    },
    energy,
    usage: { ...usageImpacts(energy, mix), wcf },
    embodied: embodiedImpacts(gpuCount, C.serverGpuCount, C.serverEmbodied, C.gpuEmbodied, share),
  };
}

function point(value: number): ValueRange {
  return { min: value, max: value };
}

function requireWater(wue: number | null): number {
  if (wue === null) throw new TypeError('a 0.9.1 electricity mix needs a water factor (checked upstream)');
  return wue;
}
