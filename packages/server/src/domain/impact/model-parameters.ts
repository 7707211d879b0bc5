import { ImpactError } from './impact-error';
import { checkValueOrRange } from './validate-impact-input';
import { isValueRange, type ValueOrRange } from './value-range';

/** Architectures of the model catalogue (`models.yaml` `arch`). */
export type ModelArchitecture = 'dense' | 'moe' | 'matformer' | 'unknown';

/** Weight quantization of a deployment; only compar:IA's convention uses it (q8 halves the counts). */
export type Quantization = 'q4' | 'q8';

/**
 * What the impact module needs to know about a model, as in the catalogue: `params_b` total and
 * `active_params_b` active parameters in billions (a number, a `{min, max}` range, or null when
 * unknown), the architecture, optionally the EcoLogits provider key of docs/impact.md#data-centres (`openai`, `mistralai`, …)
 * and the quantization.
 */
export interface ModelFacts {
  params_b: ValueOrRange | null | undefined;
  active_params_b?: ValueOrRange | null;
  arch?: ModelArchitecture;
  provider?: string | null;
  quantization?: Quantization | null;
}

/** Active and total parameter counts, billions, as EcoLogits takes them. */
export interface ParameterCounts {
  activeParamsB: ValueOrRange;
  totalParamsB: ValueOrRange;
}

/**
 * The share of total parameters EcoLogits assumes active in an MoE whose active count is not
 * published: 10 % to 30 % (docs/impact.md#parameter-counts, `proprietary_models.md`). Computed as `total / 10` and
 * `total · 3 / 10`, which gives exactly upstream's figures for round totals (440 → 44–132).
 */
export function moeActiveRange(total: ValueOrRange): ValueOrRange {
  const low = isValueRange(total) ? total.min : total;
  const high = isValueRange(total) ? total.max : total;
  return { min: low / 10, max: (high * 3) / 10 };
}

/**
 * The parameter counts of a model under the EcoLogits rules:
 * - no total (`params_b` null) → error: EcoLogits has no estimate for an unregistered size (docs/impact.md#parameter-counts);
 * - an explicit `active_params_b` is used as given (number or range);
 * - an MoE without an active count gets the 10–30 % active range, so the result is a range;
 * - any other architecture (dense, matformer, unknown) without one is sized as dense: active = total.
 * @throws ImpactError `unknown_model_size` or `invalid_parameters`.
 */
export function resolveParameterCounts(model: ModelFacts): ParameterCounts {
  const totalParamsB = model.params_b;
  if (totalParamsB === null || totalParamsB === undefined) {
    throw new ImpactError('unknown_model_size', 'the model has no parameter count (params_b is null): no impact estimate');
  }
  checkValueOrRange(totalParamsB, 'params_b', 'invalid_parameters', 0, true);
  const active = model.active_params_b;
  if (active !== null && active !== undefined) {
    checkValueOrRange(active, 'active_params_b', 'invalid_parameters', 0, true);
    return { activeParamsB: active, totalParamsB };
  }
  return { activeParamsB: model.arch === 'moe' ? moeActiveRange(totalParamsB) : totalParamsB, totalParamsB };
}
