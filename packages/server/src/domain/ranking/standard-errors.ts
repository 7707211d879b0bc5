import type { PairCounts } from './aggregate-cells';
import { evaluateBradleyTerry } from './bradley-terry';
import { addGaugeProjector, projectOutGauge, SCALE } from './gauge';
import { invertSpd, multiply } from './linear-algebra';

/** Covariances of the strengths (θ units², row-major), and per-model SEs in rating points. */
export interface StrengthCovariance {
  /** Dimension: models, then style coefficients for the style fit. */
  readonly size: number;
  /** A = P(H + Q)⁻¹P, the generalised inverse Hessian in the mean-zero gauge. */
  readonly hessian: Float64Array;
  /** A·G·A with G the sum of squared score contributions (sandwich / robust). */
  readonly sandwich: Float64Array;
}

/**
 * Hessian and sandwich covariances of a plain Bradley–Terry fit (docs/ranking.md#uncertainty-and-ranks). G sums, per
 * pair, Σ_y n_y (y − p)² (e_i − e_j)(e_i − e_j)ᵀ: a tie (y = ½) at p = ½ adds nothing, which is
 * why the Hessian SE overstates the uncertainty when ties are common.
 */
export function bradleyTerryCovariance(
  pairs: PairCounts,
  theta: Float64Array,
  lambdaTheta: number,
  components: readonly number[][],
): StrengthCovariance {
  const m = pairs.modelCount;
  const hessian = new Float64Array(m * m);
  evaluateBradleyTerry(pairs, theta, lambdaTheta, new Float64Array(m), hessian);
  const meat = new Float64Array(m * m);
  for (let p = 0; p < pairs.length; p++) {
    const a = pairs.i[p]!;
    const b = pairs.j[p]!;
    const probability = 1 / (1 + Math.exp(-(theta[a]! - theta[b]!)));
    const contribution =
      pairs.winsI[p]! * (1 - probability) ** 2 + pairs.ties[p]! * (0.5 - probability) ** 2 + pairs.winsJ[p]! * probability ** 2;
    meat[a * m + a]! += contribution;
    meat[b * m + b]! += contribution;
    meat[a * m + b]! -= contribution;
    meat[b * m + a]! -= contribution;
  }
  return sandwichFromParts(hessian, meat, m, components);
}

/** Builds A = P(H + Q)⁻¹P and A·G·A from the Hessian H and the meat G (both n×n). */
export function sandwichFromParts(
  hessian: Float64Array,
  meat: Float64Array,
  n: number,
  components: readonly number[][],
): StrengthCovariance {
  const regularised = hessian.slice();
  addGaugeProjector(regularised, n, components);
  const inverse = projectOutGauge(invertSpd(regularised, n), n, components);
  const sandwich = multiply(multiply(inverse, meat, n), inverse, n);
  return { size: n, hessian: inverse, sandwich };
}

/** SCALE·sqrt(diag C) for the first `count` coordinates: standard errors in rating points. */
export function standardErrorsInPoints(covariance: Float64Array, size: number, count = size): Float64Array {
  const out = new Float64Array(count);
  for (let k = 0; k < count; k++) out[k] = SCALE * Math.sqrt(Math.max(0, covariance[k * size + k]!));
  return out;
}
