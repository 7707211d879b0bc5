import { addGaugeProjector, centerPerComponent } from './gauge';
import { choleskyInPlace, choleskySolveInPlace, maxAbs } from './linear-algebra';
import { sandwichFromParts, type StrengthCovariance } from './standard-errors';
import type { StyleRows } from './style-features';
import { OUTCOME_LABEL } from './vote-table';

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

/** Sums of one pass over the votes, before assembly (4 features, lower-triangle XᵀWX). */
class PassSums {
  readonly gradient: Float64Array;
  readonly gradientBeta = new Float64Array(4);
  readonly pair: Float64Array;
  readonly crossA: Float64Array;
  readonly crossB: Float64Array;
  readonly xx = new Float64Array(10);
  objective = 0;
  constructor(m: number) {
    this.gradient = new Float64Array(m);
    this.pair = new Float64Array(m * m);
    this.crossA = new Float64Array(m * 4);
    this.crossB = new Float64Array(m * 4);
  }
}

const LABELS = Float64Array.from(OUTCOME_LABEL);

/** softplus(z) = log(1 + e^z), computed stably from e^−z (which the caller already has). */
function softplusFromExp(z: number, expMinusZ: number): number {
  return z > 0 ? z + Math.log1p(expMinusZ) : Math.log1p(1 / expMinusZ);
}

/**
 * One pass over the votes of J = Σ w[softplus(z) − y z] + (λθ/2)‖θ‖² + (λβ/2)‖β‖²,
 * z = θ_a − θ_b + x·β, run by run (one ordered pair per run): ∇J, J when asked, and, for the
 * Hessian, the per-pair curvature sums (Laplacian block), per-model feature sums (cross block)
 * and XᵀWX. The meat accumulates the same sums with weight w(y − p)² instead of w·p(1 − p).
 */
function accumulate(
  rows: StyleRows,
  theta: Float64Array,
  beta4: Float64Array,
  withObjective: boolean,
  curvature: PassSums,
  meat: PassSums | undefined,
  first: PassSums,
): void {
  const { runA, runB } = rows;
  const m = rows.modelCount;
  const scratch = new Float64Array(6);
  for (let run = 0; run < runA.length; run++) {
    const a = runA[run]!;
    const b = runB[run]!;
    const difference = theta[a]! - theta[b]!;
    runSums(rows, run, difference, beta4, withObjective, curvature, false, m, scratch);
    first.gradient[a]! += scratch[0]!;
    first.gradient[b]! -= scratch[0]!;
    first.objective += scratch[1]!;
    first.gradientBeta[0]! += scratch[2]!;
    first.gradientBeta[1]! += scratch[3]!;
    first.gradientBeta[2]! += scratch[4]!;
    first.gradientBeta[3]! += scratch[5]!;
    if (meat !== undefined) runSums(rows, run, difference, beta4, false, meat, true, m, scratch);
  }
}

/**
 * Gradient, J (when asked) and curvature sums of one run; writes [Σ residual, J, ∇β₀…∇β₃] into
 * `out`. With `meat`, the second-order sums are weighted by w(y − p)² instead of w·p(1 − p).
 */
function runSums(
  rows: StyleRows,
  run: number,
  difference: number,
  beta4: Float64Array,
  withObjective: boolean,
  curvature: PassSums,
  meat: boolean,
  m: number,
  out: Float64Array,
): void {
  const { runStart, outcome, x, weights } = rows;
  const b0 = beta4[0]!;
  const b1 = beta4[1]!;
  const b2 = beta4[2]!;
  const b3 = beta4[3]!;
  let residualSum = 0;
  let objective = 0;
  let g0 = 0;
  let g1 = 0;
  let g2 = 0;
  let g3 = 0;
  let total = 0;
  let c0 = 0;
  let c1 = 0;
  let c2 = 0;
  let c3 = 0;
  let s00 = 0;
  let s10 = 0;
  let s11 = 0;
  let s20 = 0;
  let s21 = 0;
  let s22 = 0;
  let s30 = 0;
  let s31 = 0;
  let s32 = 0;
  let s33 = 0;
  for (let vote = runStart[run]!, end = runStart[run + 1]!; vote < end; vote++) {
    const weight = weights === undefined ? 1 : weights[vote]!;
    if (weight === 0) continue;
    const label = LABELS[outcome[vote]!]!;
    const base = vote << 2;
    const x0 = x[base]!;
    const x1 = x[base + 1]!;
    const x2 = x[base + 2]!;
    const x3 = x[base + 3]!;
    const z = difference + x0 * b0 + x1 * b1 + x2 * b2 + x3 * b3;
    const expMinusZ = Math.exp(-z);
    if (withObjective) objective += weight * (softplusFromExp(z, expMinusZ) - label * z);
    const probability = 1 / (1 + expMinusZ);
    const residual = weight * (probability - label);
    residualSum += residual;
    g0 += residual * x0;
    g1 += residual * x1;
    g2 += residual * x2;
    g3 += residual * x3;
    const w = meat ? residual * (probability - label) : weight * probability * (1 - probability);
    total += w;
    const w0 = w * x0;
    const w1 = w * x1;
    const w2 = w * x2;
    const w3 = w * x3;
    c0 += w0;
    c1 += w1;
    c2 += w2;
    c3 += w3;
    s00 += w0 * x0;
    s10 += w1 * x0;
    s11 += w1 * x1;
    s20 += w2 * x0;
    s21 += w2 * x1;
    s22 += w2 * x2;
    s30 += w3 * x0;
    s31 += w3 * x1;
    s32 += w3 * x2;
    s33 += w3 * x3;
  }
  out[0] = residualSum;
  out[1] = objective;
  out[2] = g0;
  out[3] = g1;
  out[4] = g2;
  out[5] = g3;
  addRunSums(curvature, rows.runA[run]!, rows.runB[run]!, m, total, c0, c1, c2, c3, [s00, s10, s11, s20, s21, s22, s30, s31, s32, s33]);
}

function addRunSums(
  target: PassSums,
  a: number,
  b: number,
  m: number,
  total: number,
  c0: number,
  c1: number,
  c2: number,
  c3: number,
  s: readonly number[],
): void {
  target.pair[a * m + b]! += total;
  const { crossA, crossB, xx } = target;
  crossA[a * 4]! += c0;
  crossA[a * 4 + 1]! += c1;
  crossA[a * 4 + 2]! += c2;
  crossA[a * 4 + 3]! += c3;
  crossB[b * 4]! += c0;
  crossB[b * 4 + 1]! += c1;
  crossB[b * 4 + 2]! += c2;
  crossB[b * 4 + 3]! += c3;
  for (let index = 0; index < 10; index++) xx[index]! += s[index]!;
}

/** Lower-triangle index of (f, g) in {@link PassSums.xx}. */
function triangle(f: number, g: number): number {
  return f >= g ? (f * (f + 1)) / 2 + g : (g * (g + 1)) / 2 + f;
}

/** [[Laplacian of the ordered-pair sums, cross], [crossᵀ, XᵀWX]] over the active features. */
function assemble(sums: PassSums, m: number, active: readonly number[]): Float64Array {
  const k = active.length;
  const size = m + k;
  const out = new Float64Array(size * size);
  for (let a = 0; a < m; a++) {
    for (let b = 0; b < m; b++) {
      const value = sums.pair[a * m + b]!;
      if (value === 0) continue;
      out[a * size + a]! += value;
      out[b * size + b]! += value;
      out[a * size + b]! -= value;
      out[b * size + a]! -= value;
    }
  }
  active.forEach((feature, slot) => {
    for (let j = 0; j < m; j++) {
      const value = sums.crossA[j * 4 + feature]! - sums.crossB[j * 4 + feature]!;
      out[j * size + m + slot] = value;
      out[(m + slot) * size + j] = value;
    }
    active.forEach((other, otherSlot) => {
      out[(m + slot) * size + m + otherSlot] = sums.xx[triangle(feature, other)]!;
    });
  });
  return out;
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

/**
 * Damped Newton for the joint (θ, β) fit of style control (docs/ranking.md#solver and #style-control). Each iteration is one
 * O(N) pass over the votes plus an (m + k)² Cholesky solve; an accepted line-search trial doubles
 * as the next iteration's evaluation. Warm-start θ from the plain fit to save passes.
 */
export function fitStyleBradleyTerry(rows: StyleRows, options: StyleFitOptions): StyleFit {
  const m = rows.modelCount;
  const k = rows.active.length;
  const size = m + k;
  const maxIterations = options.maxIterations ?? 200;
  const stepTolerance = options.stepTolerance ?? 1e-6;
  const theta = options.initialTheta ? options.initialTheta.slice() : new Float64Array(m);
  const beta = options.initialBeta ? options.initialBeta.slice() : new Float64Array(k);
  centerPerComponent(theta, options.components);
  let state = pass(rows, theta, beta, options, true, Accumulate.Hessian);
  let iterations = 0;
  let converged = false;
  let lastDecrement = 0;
  const step = new Float64Array(size);
  const trialTheta = new Float64Array(m);
  const trialBeta = new Float64Array(k);
  while (iterations < maxIterations) {
    if (maxAbs(state.gradient) === 0) {
      converged = true;
      break;
    }
    const factor = state.hessian;
    addGaugeProjector(factor, size, options.components);
    choleskyInPlace(factor, size);
    for (let j = 0; j < size; j++) step[j] = -state.gradient[j]!;
    choleskySolveInPlace(factor, size, step);
    let slope = 0;
    for (let j = 0; j < size; j++) slope += state.gradient[j]! * step[j]!;
    iterations += 1;
    lastDecrement = 0;
    if (-slope > 1e-7) {
      let stepSize = 1;
      for (;;) {
        for (let j = 0; j < m; j++) trialTheta[j] = theta[j]! + stepSize * step[j]!;
        for (let f = 0; f < k; f++) trialBeta[f] = beta[f]! + stepSize * step[m + f]!;
        const trial = pass(rows, trialTheta, trialBeta, options, true, Accumulate.Hessian);
        if (trial.objective <= state.objective + 1e-4 * stepSize * slope || stepSize < 1e-10) {
          theta.set(trialTheta);
          beta.set(trialBeta);
          state = trial;
          break;
        }
        stepSize *= 0.5;
      }
      if (stepSize * maxAbs(step) <= stepTolerance) {
        converged = true;
        break;
      }
      continue;
    }
    for (let j = 0; j < m; j++) theta[j]! += step[j]!;
    for (let f = 0; f < k; f++) beta[f]! += step[m + f]!;
    if (options.lambdaTheta === 0) centerPerComponent(theta, options.components);
    lastDecrement = -slope;
    if (maxAbs(step) <= stepTolerance) {
      converged = true;
      break;
    }
    state = pass(rows, theta, beta, options, true, Accumulate.Hessian);
  }
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
    covariance: sandwichFromParts(last.hessian, last.meat!, size, options.components),
  };
}
