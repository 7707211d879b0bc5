import { addGaugeProjector, centerPerComponent } from './gauge';
import { choleskyInPlace, choleskySolveInPlace, maxAbs } from './linear-algebra';
import { sandwichFromParts, type StrengthCovariance } from './standard-errors';
import type { StyleRows } from './style-features';
import { accumulate, assemble, PassSums } from './style-pass-sums';

export type { StyleRows } from './style-features';

/** Options of {@link fitStyleBradleyTerry}. */
export interface StyleFitOptions {
  lambdaTheta: number;
  lambdaBeta: number;
  components: readonly number[][];
  initialTheta?: Float64Array | undefined;
  /** Warm start of β, one value per active feature. */
  initialBeta?: Float64Array | undefined;
  maxIterations?: number | undefined;
  /**
   * Stop after a full Newton step no larger than this (default 1e-6 in θ). Newton converges
   * quadratically, so the error left after such a step is of order 1e-12 (1e-10 rating points):
   * one pass over the votes is saved compared with waiting for a vanishing step.
   */
  stepTolerance?: number | undefined;
  /**
   * Also return the Hessian and sandwich covariances, from one more pass at the solution. Without
   * it no pass follows the last Newton step: the objective and gradient are reported from the
   * last evaluated point (see {@link StyleFit}).
   */
  withCovariance?: boolean | undefined;
}

/** A style-controlled fit: θ (models) and β (style coefficients, natural-log units per SD). */
export interface StyleFit {
  theta: Float64Array;
  /** One coefficient per active feature, in `active` order. */
  beta: Float64Array;
  /**
   * J at the solution; without `withCovariance`, the Newton model's prediction from the last
   * evaluated point, J − ½·decrement (exact to third order in the last step).
   */
  objective: number;
  iterations: number;
  /** max |∇J| at the solution; without `withCovariance`, at the point before the last step. */
  maxAbsGradient: number;
  converged: boolean;
  /** Over (θ, β), size m + active features; present when `withCovariance` was set. */
  covariance?: StrengthCovariance | undefined;
}

/** What one pass accumulates. */
const enum Accumulate {
  Hessian = 1,
  HessianAndMeat = 2,
}

interface PassResult {
  objective: number;
  gradient: Float64Array;
  hessian: Float64Array;
  meat: Float64Array | undefined;
}

function pass(
  rows: StyleRows,
  theta: Float64Array,
  beta: Float64Array,
  options: Pick<StyleFitOptions, 'lambdaTheta' | 'lambdaBeta'>,
  withObjective: boolean,
  mode: Accumulate,
): PassResult {
  const m = rows.modelCount;
  const { active } = rows;
  const k = active.length;
  const size = m + k;
  const beta4 = new Float64Array(4);
  active.forEach((feature, slot) => {
    beta4[feature] = beta[slot]!;
  });
  const first = new PassSums(m);
  const curvature = new PassSums(m);
  const meat = mode === Accumulate.HessianAndMeat ? new PassSums(m) : undefined;
  accumulate(rows, theta, beta4, withObjective, curvature, meat, first);
  const gradient = new Float64Array(size);
  let penalty = 0;
  for (let j = 0; j < m; j++) {
    gradient[j] = first.gradient[j]! + options.lambdaTheta * theta[j]!;
    penalty += options.lambdaTheta * theta[j]! ** 2;
  }
  active.forEach((feature, slot) => {
    gradient[m + slot] = first.gradientBeta[feature]! + options.lambdaBeta * beta[slot]!;
    penalty += options.lambdaBeta * beta[slot]! ** 2;
  });
  const hessian = assemble(curvature, m, active);
  for (let j = 0; j < m; j++) hessian[j * size + j]! += options.lambdaTheta;
  for (let f = 0; f < k; f++) hessian[(m + f) * size + m + f]! += options.lambdaBeta;
  return {
    objective: first.objective + 0.5 * penalty,
    gradient,
    hessian,
    meat: meat ? assemble(meat, m, active) : undefined,
  };
}

/** A point (θ, β) of the fit. */
interface FitPoint {
  readonly theta: Float64Array;
  readonly beta: Float64Array;
}

/** Where the Newton iterations stopped: the last evaluated pass and how the iterations went. */
interface NewtonRun {
  state: PassResult;
  iterations: number;
  converged: boolean;
  /** −slope of the last iteration when it took the full step (no line search); 0 otherwise. */
  lastDecrement: number;
}

/**
 * Damped Newton for the joint (θ, β) fit of style control (docs/ranking.md#solver and #style-control). Each iteration is one
 * O(N) pass over the votes plus an (m + k)² Cholesky solve; an accepted line-search trial doubles
 * as the next iteration's evaluation. Warm-start θ from the plain fit to save passes.
 */
export function fitStyleBradleyTerry(rows: StyleRows, options: StyleFitOptions): StyleFit {
  const m = rows.modelCount;
  const k = rows.active.length;
  const theta = options.initialTheta ? options.initialTheta.slice() : new Float64Array(m);
  const beta = options.initialBeta ? options.initialBeta.slice() : new Float64Array(k);
  centerPerComponent(theta, options.components);
  const { state, iterations, converged, lastDecrement } = newton(rows, options, { theta, beta });
  if (options.withCovariance !== true) {
    return {
      theta,
      beta,
      objective: state.objective - 0.5 * lastDecrement,
      iterations,
      maxAbsGradient: maxAbs(state.gradient),
      converged,
      covariance: undefined,
    };
  }
  const last = pass(rows, theta, beta, options, true, Accumulate.HessianAndMeat);
  return {
    theta,
    beta,
    objective: last.objective,
    iterations,
    maxAbsGradient: maxAbs(last.gradient),
    converged,
    covariance: sandwichFromParts(last.hessian, last.meat!, m + k, options.components),
  };
}

/** The Newton iterations from `point`, which they move to the solution in place. */
function newton(rows: StyleRows, options: StyleFitOptions, point: FitPoint): NewtonRun {
  const { theta, beta } = point;
  const m = rows.modelCount;
  const k = rows.active.length;
  const maxIterations = options.maxIterations ?? 200;
  const stepTolerance = options.stepTolerance ?? 1e-6;
  const run: NewtonRun = {
    state: pass(rows, theta, beta, options, true, Accumulate.Hessian),
    iterations: 0,
    converged: false,
    lastDecrement: 0,
  };
  const step = new Float64Array(m + k);
  const trial: FitPoint = { theta: new Float64Array(m), beta: new Float64Array(k) };
  while (run.iterations < maxIterations) {
    if (maxAbs(run.state.gradient) === 0) {
      run.converged = true;
      break;
    }
    const slope = newtonStep(run.state, options.components, step);
    run.iterations += 1;
    run.lastDecrement = 0;
    if (-slope > 1e-7) {
      const stepSize = lineSearch(rows, options, point, trial, run, step, slope);
      if (stepSize * maxAbs(step) <= stepTolerance) {
        run.converged = true;
        break;
      }
      continue;
    }
    for (let j = 0; j < m; j++) theta[j]! += step[j]!;
    for (let f = 0; f < k; f++) beta[f]! += step[m + f]!;
    if (options.lambdaTheta === 0) centerPerComponent(theta, options.components);
    run.lastDecrement = -slope;
    if (maxAbs(step) <= stepTolerance) {
      run.converged = true;
      break;
    }
    run.state = pass(rows, theta, beta, options, true, Accumulate.Hessian);
  }
  return run;
}

/**
 * Writes the Newton step −(H + gauge projector)⁻¹∇J into `step` and returns the slope ∇J·step.
 * The state's Hessian is factorised in place: it is not read again.
 */
function newtonStep(state: PassResult, components: readonly number[][], step: Float64Array): number {
  const size = step.length;
  const factor = state.hessian;
  addGaugeProjector(factor, size, components);
  choleskyInPlace(factor, size);
  for (let j = 0; j < size; j++) step[j] = -state.gradient[j]!;
  choleskySolveInPlace(factor, size, step);
  let slope = 0;
  for (let j = 0; j < size; j++) slope += state.gradient[j]! * step[j]!;
  return slope;
}

/**
 * Backtracking along `step` until J decreases enough (Armijo, 1e-4) or the step size is below
 * 1e-10: moves `point` there, makes that trial's pass the run's state and returns the step size.
 */
function lineSearch(
  rows: StyleRows,
  options: StyleFitOptions,
  point: FitPoint,
  trial: FitPoint,
  run: NewtonRun,
  step: Float64Array,
  slope: number,
): number {
  const m = rows.modelCount;
  const k = rows.active.length;
  let stepSize = 1;
  for (;;) {
    for (let j = 0; j < m; j++) trial.theta[j] = point.theta[j]! + stepSize * step[j]!;
    for (let f = 0; f < k; f++) trial.beta[f] = point.beta[f]! + stepSize * step[m + f]!;
    const evaluated = pass(rows, trial.theta, trial.beta, options, true, Accumulate.Hessian);
    if (evaluated.objective <= run.state.objective + 1e-4 * stepSize * slope || stepSize < 1e-10) {
      point.theta.set(trial.theta);
      point.beta.set(trial.beta);
      run.state = evaluated;
      return stepSize;
    }
    stepSize *= 0.5;
  }
}
