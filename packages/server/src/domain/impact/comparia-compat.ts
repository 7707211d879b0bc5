import { ImpactError } from './impact-error';
import type { ModelFacts, ParameterCounts } from './model-parameters';
import { checkValueOrRange } from './validate-impact-input';
import { mapRange, rangeMean, type ValueOrRange, type ValueRange } from './value-range';

/**
 * compar:IA compatibility switch. Reproduces the figures compar:IA publishes (betagouv/ComparIA
 * `backend/llms/utils.py`, docs/impact.md#parameter-counts and #comparia-compatibility), which differ from plain EcoLogits by convention:
 * EcoLogits 0.8.2; parameter counts truncated to integers and halved (integer division) for q8
 * models; an MoE without active count sized as dense; world mix `WOR` and PUE 1.2 for every model;
 * no measured latency; output tokens only; one computation on the conversation's total tokens.
 */
export const COMPARIA_CONVENTIONS = {
  version: '0.8.2',
  zone: 'WOR',
  pue: 1.2,
} as const;

/** A duration unit of compar:IA's reveal card: days (`j`, French), hours, minutes, seconds. */
export type ComparIaDurationUnit = 'j' | 'h' | 'min' | 's';

/** A value with its compar:IA unit, e.g. `{value: 3, unit: 'h'}`. */
export interface ComparIaDuration {
  value: number;
  unit: ComparIaDurationUnit;
}

/**
 * One side of compar:IA's reveal (`get_llm_consumption`): mean energy in kWh, mean GWP in kg CO2eq,
 * the output tokens and the two everyday equivalents, with compar:IA's truncations.
 */
export interface ComparIaConsumption {
  kwh: number;
  co2: number;
  tokens: number;
  lightbulb: ComparIaDuration;
  streaming: ComparIaDuration;
}

/** Python `int(x)` then, for q8, `// 2` (both bounds of a range). */
function comparIaCount(value: ValueOrRange, quantization: ModelFacts['quantization']): ValueOrRange {
  return mapRange(value, (bound) => (quantization === 'q8' ? Math.floor(Math.trunc(bound) / 2) : Math.trunc(bound)));
}

/**
 * Parameter counts as compar:IA passes them to EcoLogits: `int(params)` (÷2 for q8); active =
 * `int(active_params)` (÷2 for q8) when set and non-zero, else the total (even for an MoE).
 * @throws ImpactError `unknown_model_size` without `params_b`; `invalid_parameters` when a count is
 *   not positive or the truncated total is 0 (compar:IA would then count 0 GPUs).
 */
export function comparIaParameterCounts(model: ModelFacts): ParameterCounts {
  if (model.params_b === null || model.params_b === undefined) {
    throw new ImpactError('unknown_model_size', 'the model has no parameter count (params_b is null): no impact estimate');
  }
  checkValueOrRange(model.params_b, 'params_b', 'invalid_parameters', 0, true);
  const totalParamsB = comparIaCount(model.params_b, model.quantization);
  checkValueOrRange(totalParamsB, 'params_b after compar:IA truncation', 'invalid_parameters', 0, true);
  const active = model.active_params_b;
  if (active === null || active === undefined || active === 0) return { activeParamsB: totalParamsB, totalParamsB };
  checkValueOrRange(active, 'active_params_b', 'invalid_parameters', 0, true);
  return { activeParamsB: comparIaCount(active, model.quantization), totalParamsB };
}

/**
 * compar:IA's LED-bulb equivalent of an energy in kWh: hours of a 5 W bulb, shown in the largest of
 * days/hours/minutes/seconds that reaches 1, truncated to an integer (`calculate_lightbulb_consumption`).
 */
export function comparIaLightbulb(kwh: number): ComparIaDuration {
  const watthours = kwh * 1000;
  const hours = watthours / 5;
  const days = watthours / (5 * 24);
  const minutes = (watthours * 60) / 5;
  const seconds = (watthours * 60 * 60) / 5;
  if (days >= 1) return { value: Math.trunc(days), unit: 'j' };
  if (hours >= 1) return { value: Math.trunc(hours), unit: 'h' };
  if (minutes >= 1) return { value: Math.trunc(minutes), unit: 'min' };
  return { value: Math.trunc(seconds), unit: 's' };
}

/**
 * compar:IA's online-video equivalent of a GWP in kg CO2eq: hours of HD streaming at 31.7 g/h
 * (ADEME), in the largest unit that reaches 1, truncated (`calculate_streaming_hours`).
 */
export function comparIaStreaming(co2Kg: number): ComparIaDuration {
  const hours = (co2Kg * 10000) / 317; // 31.7 g per hour, written as upstream does
  if (hours >= 24) return { value: Math.trunc(hours / 24), unit: 'j' };
  if (hours >= 1) return { value: Math.trunc(hours), unit: 'h' };
  if (hours * 60 >= 1) return { value: Math.trunc(hours * 60), unit: 'min' };
  return { value: Math.trunc(hours * 60 * 60), unit: 's' };
}

/** compar:IA's reveal figures from the energy (kWh) and GWP (kg) ranges of a side's whole conversation. */
export function comparIaConsumption(energyKwh: ValueRange, gwpKg: ValueRange, tokens: number): ComparIaConsumption {
  const kwh = rangeMean(energyKwh);
  const co2 = rangeMean(gwpKg);
  return { kwh, co2, tokens, lightbulb: comparIaLightbulb(kwh), streaming: comparIaStreaming(co2) };
}
