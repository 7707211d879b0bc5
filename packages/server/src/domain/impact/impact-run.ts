import type { ElectricityMixFactors, ImpactRunDetails } from './impact-types';
import type { ValueRange } from './value-range';

/** The three indicators that have an embodied phase, with their per-unit factors. */
export interface EmbodiedFactors {
  gwp: number;
  adpe: number;
  pe: number;
}

/**
 * Everything one evaluation of the EcoLogits graph yields for one (active, total) parameter pair:
 * the intermediates, the request energy, and the usage and embodied impacts (water is usage-only and
 * `null` when the version has no water indicator).
 */
export interface ImpactRun {
  details: ImpactRunDetails;
  energy: ValueRange;
  usage: { gwp: ValueRange; adpe: ValueRange; pe: ValueRange; wcf: ValueRange | null };
  embodied: { gwp: ValueRange; adpe: ValueRange; pe: ValueRange };
}

/** What a version's run function receives once the inputs are validated: scalars, ranges made explicit. */
export interface RunInput {
  activeParamsB: number;
  totalParamsB: number;
  outputTokens: number;
  /** `Infinity` when the latency was not measured. */
  requestLatencySeconds: number;
  mix: ElectricityMixFactors;
  pue: ValueRange;
  wue: ValueRange;
}

/** Usage impacts of a request energy: energy × each mix factor (docs/impact.md#formulas-091 (6)). */
export function usageImpacts(energy: ValueRange, mix: ElectricityMixFactors): Omit<ImpactRun['usage'], 'wcf'> {
  return {
    gwp: { min: energy.min * mix.gwp, max: energy.max * mix.gwp },
    adpe: { min: energy.min * mix.adpe, max: energy.max * mix.adpe },
    pe: { min: energy.min * mix.pe, max: energy.max * mix.pe },
  };
}

/**
 * Embodied impacts of the hardware one request occupies: `(G / G_inst) · S_k + G · U_k` per
 * indicator, then shared pro rata of the occupation time by `share` (docs/impact.md#formulas-091 (8), #formulas-082 (8′)).
 */
export function embodiedImpacts(
  gpuCount: number,
  serverGpuCount: number,
  server: EmbodiedFactors,
  gpu: EmbodiedFactors,
  share: (hardwareImpact: number) => ValueRange,
): ImpactRun['embodied'] {
  const hardware = (key: keyof EmbodiedFactors) => (gpuCount / serverGpuCount) * server[key] + gpuCount * gpu[key];
  return { gwp: share(hardware('gwp')), adpe: share(hardware('adpe')), pe: share(hardware('pe')) };
}
