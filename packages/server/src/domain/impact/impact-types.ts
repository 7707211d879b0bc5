import type { ValueOrRange, ValueRange } from './value-range';

/** The two EcoLogits generations implemented: `0.9.1` (current, default) and `0.8.2` (compar:IA production). */
export type EcologitsVersion = '0.9.1' | '0.8.2';

/** Every EcoLogits version this module implements, the default first. */
export const ECOLOGITS_VERSIONS: readonly EcologitsVersion[] = ['0.9.1', '0.8.2'];

/**
 * How a figure was obtained, as shown on the reveal: plain EcoLogits of one version, or the compar:IA
 * compatibility switch (EcoLogits 0.8.2 with compar:IA's conventions, see `comparia-compat.ts`).
 */
export type ImpactMethod = 'ecologits-0.9.1' | 'ecologits-0.8.2' | 'comparia-compat';

/**
 * Impact factors of one kWh of electricity in a zone: `gwp` kgCO2eq, `adpe` kgSbeq, `pe` MJ and
 * `wue` off-site water litres (0.9.1 data only; `null` in the 0.8.2 data).
 */
export interface ElectricityMixFactors {
  gwp: number;
  adpe: number;
  pe: number;
  wue: number | null;
}

/**
 * The inputs of one EcoLogits `compute_llm_impacts` call (docs/impact.md#model-shape), every choice already made:
 * parameters in billions, the mix factors, the data-centre PUE and (0.9.1) on-site WUE.
 */
export interface LlmImpactInput {
  version: EcologitsVersion;
  /** Active parameters per token, billions (number or range). */
  activeParamsB: ValueOrRange;
  /** Total parameters, billions (number or range); sizes the GPU count. */
  totalParamsB: ValueOrRange;
  /** Output tokens of the request (input tokens are not modelled). */
  outputTokens: number;
  /** Measured request latency in seconds, an upper cap of the generation time; `null`/absent = not measured. */
  requestLatencySeconds?: number | null;
  mix: ElectricityMixFactors;
  /** Power usage effectiveness of the data centre (≥ 1). */
  pue: ValueOrRange;
  /** On-site water usage effectiveness, L/kWh; used by 0.9.1 only (0 when absent). */
  wue?: ValueOrRange;
}

/** The intermediate quantities of one evaluation of the EcoLogits graph (one parameter pair). */
export interface ImpactRunDetails {
  activeParamsB: number;
  totalParamsB: number;
  /** Memory needed to hold the weights, GB. */
  modelRequiredMemoryGb: number;
  /** GPUs the model is spread over (power of two in 0.9.1, plain ceiling in 0.8.2). */
  gpuRequiredCount: number;
  /** Generation latency after the optional cap, seconds. */
  generationLatencySeconds: ValueRange;
  /** Energy of one GPU for the whole request, kWh. */
  gpuEnergyKwh: ValueRange;
  /** Energy of the server excluding GPUs, kWh. */
  serverEnergyKwh: ValueRange;
}

/** One indicator split into its usage (electricity) and embodied (manufacturing) phases, and their total. */
export interface PhasedImpact {
  total: ValueRange;
  usage: ValueRange;
  embodied: ValueRange;
}

/**
 * The impacts of one LLM request, each as `{min, max}` (min = max for a single value): energy kWh,
 * GWP kgCO2eq, ADPe kgSbeq, PE MJ, and (0.9.1 only, else `null`) water consumption footprint in litres.
 * Energy and water are usage-only.
 */
export interface LlmImpacts {
  energyKwh: ValueRange;
  gwpKgCo2eq: PhasedImpact;
  adpeKgSbeq: PhasedImpact;
  peMj: PhasedImpact;
  wcfLitres: ValueRange | null;
  /** One entry per evaluation: one run, or two (min then max) when a parameter count is a range. */
  runs: ImpactRunDetails[];
}
