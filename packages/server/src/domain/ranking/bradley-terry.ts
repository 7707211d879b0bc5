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

/**
 * Damped Newton on the m×m system (spec §2.5). The gauge projector Q is added to the Hessian so
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
  const gradient = new Float64Array(m);
  const hessian = new Float64Array(m * m);
  const step = new Float64Array(m);
  const trial = new Float64Array(m);
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations) {
    const objective = evaluateBradleyTerry(pairs, theta, lambdaTheta, gradient, hessian);
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
      for (;;) {
        for (let k = 0; k < m; k++) trial[k] = theta[k]! + size * step[k]!;
        const trialObjective = evaluateBradleyTerry(pairs, trial, lambdaTheta);
        if (trialObjective <= objective + 1e-4 * size * slope || size < 1e-10) break;
        size *= 0.5;
      }
    }
    for (let k = 0; k < m; k++) theta[k]! += size * step[k]!;
    iterations += 1;
    if (lambdaTheta === 0) centerPerComponent(theta, components);
    if (size * maxAbs(step) <= stepTolerance) {
      converged = true;
      break;
    }
  }
  const objective = evaluateBradleyTerry(pairs, theta, lambdaTheta, gradient);
  return { theta, objective, iterations, maxAbsGradient: maxAbs(gradient), converged };
}
