import type { PairCounts } from './aggregate-cells';
import { addGaugeProjector, centerPerComponent } from './gauge';
import { choleskyInPlace, choleskySolveInPlace, maxAbs } from './linear-algebra';

/** Options of {@link fitBradleyTerry}. */
export interface BradleyTerryOptions {
  /** Ridge λθ on θ, sum form: J adds (λθ/2)‖θ‖². 0 is the plain MLE. */
  lambdaTheta: number;
  /** Weak components (model indices), for the gauge. */
  components: readonly number[][];
  /** Warm start (copied); zeros by default. */
  initialTheta?: Float64Array | undefined;
  /** Newton iteration cap (default 200). */
  maxIterations?: number | undefined;
  /** Stop once the largest Newton step in θ is below this (default 1e-11, ≈ 2e-9 points). */
  stepTolerance?: number | undefined;
}

/** A converged (or capped) Bradley–Terry fit. */
export interface BradleyTerryFit {
  /** Natural-log strengths, Σθ = 0 per component. */
  theta: Float64Array;
  /** J(θ) including the penalty. */
  objective: number;
  iterations: number;
  /** max |∇J| at the returned θ. */
  maxAbsGradient: number;
  converged: boolean;
}

/**
 * J(θ) = Σ_pairs [n·softplus(z) − s·z] + (λ/2)‖θ‖², z = θ_i − θ_j, n the votes of the pair and s
 * the win mass of i (a tie is ½). Writes ∇J into `gradient` and, when given, the Hessian (the
 * n·p(1−p)-weighted Laplacian plus λI, row-major m×m) into `hessian`. Returns J.
 */
export function evaluateBradleyTerry(
  pairs: PairCounts,
  theta: Float64Array,
  lambdaTheta: number,
  gradient?: Float64Array,
  hessian?: Float64Array,
): number {
  const m = pairs.modelCount;
  if (gradient) gradient.fill(0);
  if (hessian) hessian.fill(0);
  let objective = 0;
  const { i: first, j: second, winsI, ties, winsJ } = pairs;
  for (let p = 0; p < pairs.length; p++) {
    const a = first[p]!;
    const b = second[p]!;
    const tie = ties[p]!;
    const n = winsI[p]! + tie + winsJ[p]!;
    if (n === 0) continue;
    const s = winsI[p]! + 0.5 * tie;
    const z = theta[a]! - theta[b]!;
    const e = Math.exp(-Math.abs(z));
    objective += n * ((z > 0 ? z : 0) + Math.log1p(e)) - s * z;
    if (!gradient) continue;
    const probability = z >= 0 ? 1 / (1 + e) : e / (1 + e);
    const residual = n * probability - s;
    gradient[a]! += residual;
    gradient[b]! -= residual;
    if (!hessian) continue;
    const curvature = n * probability * (1 - probability);
    hessian[a * m + a]! += curvature;
    hessian[b * m + b]! += curvature;
    hessian[a * m + b]! -= curvature;
    hessian[b * m + a]! -= curvature;
  }
  if (lambdaTheta !== 0) {
    let squares = 0;
    for (let k = 0; k < m; k++) {
      const value = theta[k]!;
      squares += value * value;
      if (gradient) gradient[k]! += lambdaTheta * value;
      if (hessian) hessian[k * m + k]! += lambdaTheta;
    }
    objective += 0.5 * lambdaTheta * squares;
  }
  return objective;
}

/** Per-pair vote totals n and win masses s of i, precomputed once per fit. */
interface PairTotals {
  n: Float64Array;
  s: Float64Array;
}

function pairTotals(pairs: PairCounts): PairTotals {
  const n = new Float64Array(pairs.length);
  const s = new Float64Array(pairs.length);
  for (let p = 0; p < pairs.length; p++) {
    const tie = pairs.ties[p]!;
    n[p] = pairs.winsI[p]! + tie + pairs.winsJ[p]!;
    s[p] = pairs.winsI[p]! + 0.5 * tie;
  }
  return { n, s };
}

/** ∇J (and the Hessian when given) without the objective: no logarithms in the hot loop. */
function accumulateDerivatives(
  pairs: PairCounts,
  totals: PairTotals,
  theta: Float64Array,
  lambdaTheta: number,
  gradient: Float64Array,
  hessian: Float64Array | undefined,
): void {
  const m = pairs.modelCount;
  gradient.fill(0);
  if (hessian) hessian.fill(0);
  const { i: first, j: second } = pairs;
  const { n, s } = totals;
  for (let p = 0; p < pairs.length; p++) {
    const votes = n[p]!;
    if (votes === 0) continue;
    const a = first[p]!;
    const b = second[p]!;
    const probability = 1 / (1 + Math.exp(theta[b]! - theta[a]!));
    const residual = votes * probability - s[p]!;
    gradient[a]! += residual;
    gradient[b]! -= residual;
    if (hessian) {
      const curvature = votes * probability * (1 - probability);
      hessian[a * m + a]! += curvature;
      hessian[b * m + b]! += curvature;
      hessian[a * m + b]! -= curvature;
      hessian[b * m + a]! -= curvature;
    }
  }
  for (let k = 0; k < m; k++) {
    gradient[k]! += lambdaTheta * theta[k]!;
    if (hessian) hessian[k * m + k]! += lambdaTheta;
  }
}

/**
 * Damped Newton on the m×m system (docs/ranking.md#solver). The gauge projector Q is added to the Hessian so
 * the step stays in the mean-zero gauge; Armijo backtracking runs while the Newton decrement is
 * above 1e-7, then full steps converge quadratically (5–7 iterations from zero, 2–3 warm).
 * With λθ = 0 the caller must make sure the MLE exists (see `analyzeGraph`).
 */
export function fitBradleyTerry(pairs: PairCounts, options: BradleyTerryOptions): BradleyTerryFit {
  const m = pairs.modelCount;
  const { lambdaTheta, components } = options;
  const maxIterations = options.maxIterations ?? 200;
  const stepTolerance = options.stepTolerance ?? 1e-11;
  const theta = options.initialTheta ? options.initialTheta.slice() : new Float64Array(m);
  centerPerComponent(theta, components);
  const totals = pairTotals(pairs);
  const gradient = new Float64Array(m);
  const hessian = new Float64Array(m * m);
  const step = new Float64Array(m);
  const trial = new Float64Array(m);
  let iterations = 0;
  let converged = false;
  let objective = Number.NaN;
  while (iterations < maxIterations) {
    accumulateDerivatives(pairs, totals, theta, lambdaTheta, gradient, hessian);
    if (maxAbs(gradient) === 0) {
      converged = true;
      break;
    }
    addGaugeProjector(hessian, m, components);
    choleskyInPlace(hessian, m);
    for (let k = 0; k < m; k++) step[k] = -gradient[k]!;
    choleskySolveInPlace(hessian, m, step);
    let slope = 0;
    for (let k = 0; k < m; k++) slope += gradient[k]! * step[k]!;
    let size = 1;
    if (-slope > 1e-7) {
      if (Number.isNaN(objective)) objective = evaluateBradleyTerry(pairs, theta, lambdaTheta);
      for (;;) {
        for (let k = 0; k < m; k++) trial[k] = theta[k]! + size * step[k]!;
        const trialObjective = evaluateBradleyTerry(pairs, trial, lambdaTheta);
        if (trialObjective <= objective + 1e-4 * size * slope || size < 1e-10) {
          objective = trialObjective;
          break;
        }
        size *= 0.5;
      }
    } else {
      objective = Number.NaN;
    }
    for (let k = 0; k < m; k++) theta[k]! += size * step[k]!;
    iterations += 1;
    if (lambdaTheta === 0) centerPerComponent(theta, components);
    if (size * maxAbs(step) <= stepTolerance) {
      converged = true;
      break;
    }
  }
  const finalObjective = evaluateBradleyTerry(pairs, theta, lambdaTheta, gradient);
  return { theta, objective: finalObjective, iterations, maxAbsGradient: maxAbs(gradient), converged };
}

/**
 * Quasi-Newton steps with a fixed, already factorised Hessian (the full-data one): θ ← θ − F⁻¹∇J.
 * For a bootstrap resample the Hessian barely moves, so each step gains about one digit for the
 * price of a gradient, without a new factorisation. Returns the number of steps, or −1 when it
 * does not converge within `maxSteps` (the caller then runs full Newton).
 */
export function refineWithFixedHessian(
  pairs: PairCounts,
  factor: Float64Array,
  theta: Float64Array,
  lambdaTheta: number,
  components: readonly number[][],
  stepTolerance: number,
  maxSteps = 25,
): number {
  const m = pairs.modelCount;
  const totals = pairTotals(pairs);
  const gradient = new Float64Array(m);
  let previous = Number.POSITIVE_INFINITY;
  for (let steps = 1; steps <= maxSteps; steps++) {
    accumulateDerivatives(pairs, totals, theta, lambdaTheta, gradient, undefined);
    choleskySolveInPlace(factor, m, gradient);
    const size = maxAbs(gradient);
    if (!(size < 2 * previous)) return -1;
    for (let k = 0; k < m; k++) theta[k]! -= gradient[k]!;
    if (lambdaTheta === 0) centerPerComponent(theta, components);
    if (size <= stepTolerance) return steps;
    previous = size;
  }
  return -1;
}
