import { ECOLOGITS_0_8_2 as C } from './constants-0-8-2';
import { embodiedImpacts, usageImpacts, type ImpactRun, type RunInput } from './impact-run';
import { addRanges, scaleRange, type ValueRange } from './value-range';

// Operations are written in the upstream order so that doubles match the Python library bit for bit.

/** Energy of one GPU for the whole request as a 95 % band, kWh (docs/impact.md#formulas-082 (1′)). */
export function gpuEnergyKwh0_8_2(activeParamsB: number, outputTokens: number): ValueRange {
  const perTokenMean = C.gpuEnergyAlpha * activeParamsB + C.gpuEnergyBeta;
  const low = outputTokens * (perTokenMean - C.bandZ * C.gpuEnergyStdev);
  const high = outputTokens * (perTokenMean + C.bandZ * C.gpuEnergyStdev);
  return { min: Math.max(0, low), max: high };
}

/**
 * Generation latency band in seconds (docs/impact.md#formulas-082 (2′)). The band is kept when its upper bound is below
 * the measured latency; otherwise the whole band collapses to the measured latency (upstream quirk).
 */
export function generationLatency0_8_2(activeParamsB: number, outputTokens: number, requestLatency: number): ValueRange {
  const perTokenMean = C.latencyAlpha * activeParamsB + C.latencyBeta;
  const low = outputTokens * (perTokenMean - C.bandZ * C.latencyStdev);
  const high = outputTokens * (perTokenMean + C.bandZ * C.latencyStdev);
  if (high < requestLatency) return { min: Math.max(0, low), max: high };
  return { min: requestLatency, max: requestLatency };
}

/** Memory needed for the weights, GB: `1.2 · P_t · 4 / 8` (docs/impact.md#formulas-082 (3′)). */
export function modelMemoryGb0_8_2(totalParamsB: number): number {
  return (C.memoryOverhead * totalParamsB * C.quantizationBits) / 8;
}

/** GPUs needed: plain ceiling of memory / 80 GB, no power-of-two rounding (docs/impact.md#formulas-082 (3′)). */
export function gpuCount0_8_2(totalParamsB: number): number {
  return Math.ceil(modelMemoryGb0_8_2(totalParamsB) / C.gpuMemoryGb);
}

/** One evaluation of the 0.8.2 graph for one (active, total) parameter pair (docs/impact.md#formulas-082). */
export function runEcologits0_8_2(input: RunInput): ImpactRun {
  const { activeParamsB, totalParamsB, outputTokens, mix, pue } = input;
  const gpuEnergy = gpuEnergyKwh0_8_2(activeParamsB, outputTokens);
  const latency = generationLatency0_8_2(activeParamsB, outputTokens, input.requestLatencySeconds);
  const gpuCount = gpuCount0_8_2(totalParamsB);
  const serverEnergy = latencyMap(latency, (seconds) => (seconds / 3600) * C.serverPowerKw * (gpuCount / C.serverGpuCount));
  const gpusEnergy = scaleRange(gpuEnergy, gpuCount);
  const raw = addRanges(serverEnergy, gpusEnergy);
  const energy = { min: pue.min * raw.min, max: pue.max * raw.max };
  const share = (hardware: number) => latencyMap(latency, (seconds) => (seconds / C.hardwareLifetimeSeconds) * hardware);
  return {
    details: {
      activeParamsB,
      totalParamsB,
      modelRequiredMemoryGb: modelMemoryGb0_8_2(totalParamsB),
      gpuRequiredCount: gpuCount,
      generationLatencySeconds: latency,
      gpuEnergyKwh: gpuEnergy,
      serverEnergyKwh: serverEnergy,
    },
    energy,
    usage: { ...usageImpacts(energy, mix), wcf: null },
    embodied: embodiedImpacts(gpuCount, C.serverGpuCount, C.serverEmbodied, C.gpuEmbodied, share),
  };
}

function latencyMap(latency: ValueRange, transform: (seconds: number) => number): ValueRange {
  return { min: transform(latency.min), max: transform(latency.max) };
}
