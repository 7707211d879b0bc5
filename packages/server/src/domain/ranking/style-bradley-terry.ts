import { addGaugeProjector, centerPerComponent } from './gauge';
import { choleskyInPlace, choleskySolveInPlace, maxAbs } from './linear-algebra';
import { sandwichFromParts, type StrengthCovariance } from './standard-errors';
import { OUTCOME_LABEL, type VoteTable } from './vote-table';

/** Per-vote rows of the style-controlled fit: the votes and their standardised features. */
export interface StyleRows {
  readonly table: VoteTable;
  /** 4 standardised features per vote (`buildStyleDesign`); inactive columns are zeros. */
  readonly x: Float64Array;
  /** Indices of the features that enter the fit (constant columns are left out). */
  readonly active: readonly number[];
  /** Optional replicate weight of each vote (bootstrap); 1 when absent. */
  readonly weights?: Float64Array | undefined;
}

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
   * Stop after a full Newton step no larger than this (default 1e-7 in θ). Newton converges
   * quadratically, so the error left after such a step is of order 1e-14: one pass over the
   * votes is saved compared with waiting for a vanishing step.
   */
  stepTolerance?: number | undefined;
  /** Also return the Hessian and sandwich covariances (computed in the final pass). */
  withCovariance?: boolean | undefined;
}

/** A style-controlled fit: θ (models) and β (style coefficients, natural-log units per SD). */
export interface StyleFit {
  theta: Float64Array;
  /** One coefficient per active feature, in `active` order. */
  beta: Float64Array;
  objective: number;
  iterations: number;
  maxAbsGradient: number;
  converged: boolean;
  /** Over (θ, β), size m + active features; present when `withCovariance` was set. */
  covariance?: StrengthCovariance | undefined;
}

interface PassResult {
  objective: number;
  gradient: Float64Array;
  hessian: Float64Array;
  meat: Float64Array | undefined;
}

/** What one pass accumulates. */
const enum Accumulate {
  Gradient = 0,
  Hessian = 1,
  HessianAndMeat = 2,
}

/** Sums of one pass over the votes, before assembly (k = 4 features, lower-triangle XᵀWX). */
class PassSums {
  readonly gradient: Float64Array;
  readonly gradientBeta = new Float64Array(4);
  readonly pair: Float64Array;
  readonly crossA: Float64Array;
  readonly crossB: Float64Array;
  readonly xx = new Float64Array(10);
  objective = 0;
  constructor(m: number, withSecondOrder: boolean) {
    this.gradient = new Float64Array(m);
    this.pair = new Float64Array(withSecondOrder ? m * m : 0);
    this.crossA = new Float64Array(withSecondOrder ? m * 4 : 0);
    this.crossB = new Float64Array(withSecondOrder ? m * 4 : 0);
  }
}

/** Rows per block: small enough that the block function is optimised early, big enough to amortise calls. */
const BLOCK_ROWS = 16384;

/**
 * One pass over the votes for J, ∇J and the second-order sums of
 * J = Σ w[softplus(z) − y z] + (λθ/2)‖θ‖² + (λβ/2)‖β‖², z = θ_a − θ_b + x·β: an ordered-pair
 * bincount (Laplacian block), per-model feature sums (cross block) and XᵀWX. The meat variant
 * accumulates the same sums with weight w(y − p)² instead of w·p(1 − p).
 */
function accumulate(
  rows: StyleRows,
  theta: Float64Array,
  beta4: Float64Array,
  withObjective: boolean,
  curvatureSums: PassSums | undefined,
  meatSums: PassSums | undefined,
  sums: PassSums,
): void {
  const length = rows.table.length;
  for (let start = 0; start < length; start += BLOCK_ROWS) {
    const end = Math.min(length, start + BLOCK_ROWS);
    if (curvatureSums === undefined) {
      sums.objective += firstOrderBlock(rows, theta, beta4, start, end, withObjective, sums);
    } else {
      sums.objective += weightedBlock(rows, theta, beta4, start, end, withObjective, sums, curvatureSums, false);
    }
    if (meatSums !== undefined) weightedBlock(rows, theta, beta4, start, end, false, undefined, meatSums, true);
  }
}

/** Gradient (and J) of rows [start, end); returns the block's share of J (0 without objective). */
function firstOrderBlock(
  rows: StyleRows,
  theta: Float64Array,
  beta4: Float64Array,
  start: number,
  end: number,
  withObjective: boolean,
  sums: PassSums,
): number {
  const { x, weights } = rows;
  const { modelA, modelB, outcome } = rows.table;
  const gradient = sums.gradient;
  const b0 = beta4[0]!;
  const b1 = beta4[1]!;
  const b2 = beta4[2]!;
  const b3 = beta4[3]!;
  let g0 = 0;
  let g1 = 0;
  let g2 = 0;
  let g3 = 0;
  let objective = 0;
  for (let row = start; row < end; row++) {
    const weight = weights === undefined ? 1 : weights[row]!;
    if (weight === 0) continue;
    const a = modelA[row]!;
    const b = modelB[row]!;
    const label = LABELS[outcome[row]!]!;
    const base = row << 2;
    const x0 = x[base]!;
    const x1 = x[base + 1]!;
    const x2 = x[base + 2]!;
    const x3 = x[base + 3]!;
    const z = theta[a]! - theta[b]! + x0 * b0 + x1 * b1 + x2 * b2 + x3 * b3;
    const expMinusZ = Math.exp(-z);
    if (withObjective) objective += weight * (softplusFromExp(z, expMinusZ) - label * z);
    const probability = 1 / (1 + expMinusZ);
    const residual = weight * (probability - label);
    gradient[a]! += residual;
    gradient[b]! -= residual;
    g0 += residual * x0;
    g1 += residual * x1;
    g2 += residual * x2;
    g3 += residual * x3;
  }
  const gradientBeta = sums.gradientBeta;
  gradientBeta[0]! += g0;
  gradientBeta[1]! += g1;
  gradientBeta[2]! += g2;
  gradientBeta[3]! += g3;
  return objective;
}

/**
 * Second-order sums of rows [start, end) into `target`, weighted by w·p(1 − p) (Hessian) or, with
 * `meat`, by w(y − p)² (sandwich meat). Without `meat` it also adds the gradient (and J) to
 * `sums`, so a Newton pass reads every vote once.
 */
function weightedBlock(
  rows: StyleRows,
  theta: Float64Array,
  beta4: Float64Array,
  start: number,
  end: number,
  withObjective: boolean,
  sums: PassSums | undefined,
  target: PassSums,
  meat: boolean,
): number {
  const { x, weights } = rows;
  const { modelA, modelB, outcome } = rows.table;
  const m = rows.table.models.length;
  const gradient = sums?.gradient;
  const { pair, crossA, crossB } = target;
  const b0 = beta4[0]!;
  const b1 = beta4[1]!;
  const b2 = beta4[2]!;
  const b3 = beta4[3]!;
  let g0 = 0;
  let g1 = 0;
  let g2 = 0;
  let g3 = 0;
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
  let objective = 0;
  for (let row = start; row < end; row++) {
    const weight = weights === undefined ? 1 : weights[row]!;
    if (weight === 0) continue;
    const a = modelA[row]!;
    const b = modelB[row]!;
    const label = LABELS[outcome[row]!]!;
    const base = row << 2;
    const x0 = x[base]!;
    const x1 = x[base + 1]!;
    const x2 = x[base + 2]!;
    const x3 = x[base + 3]!;
    const z = theta[a]! - theta[b]! + x0 * b0 + x1 * b1 + x2 * b2 + x3 * b3;
    const expMinusZ = Math.exp(-z);
    const probability = 1 / (1 + expMinusZ);
    let w: number;
    if (meat) {
      const deviation = label - probability;
      w = weight * deviation * deviation;
    } else {
      if (withObjective) objective += weight * (softplusFromExp(z, expMinusZ) - label * z);
      const residual = weight * (probability - label);
      gradient![a]! += residual;
      gradient![b]! -= residual;
      g0 += residual * x0;
      g1 += residual * x1;
      g2 += residual * x2;
      g3 += residual * x3;
      w = weight * probability * (1 - probability);
    }
    pair[a * m + b]! += w;
    const w0 = w * x0;
    const w1 = w * x1;
    const w2 = w * x2;
    const w3 = w * x3;
    const rowA = a << 2;
    const rowB = b << 2;
    crossA[rowA]! += w0;
    crossA[rowA + 1]! += w1;
    crossA[rowA + 2]! += w2;
    crossA[rowA + 3]! += w3;
    crossB[rowB]! += w0;
    crossB[rowB + 1]! += w1;
    crossB[rowB + 2]! += w2;
    crossB[rowB + 3]! += w3;
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
  const xx = target.xx;
  xx[0]! += s00;
  xx[1]! += s10;
  xx[2]! += s11;
  xx[3]! += s20;
  xx[4]! += s21;
  xx[5]! += s22;
  xx[6]! += s30;
  xx[7]! += s31;
  xx[8]! += s32;
  xx[9]! += s33;
  if (sums) {
    const gradientBeta = sums.gradientBeta;
    gradientBeta[0]! += g0;
    gradientBeta[1]! += g1;
    gradientBeta[2]! += g2;
    gradientBeta[3]! += g3;
  }
  return objective;
}

const LABELS = Float64Array.from(OUTCOME_LABEL);

/** softplus(z) = log(1 + e^z), computed stably from e^−z (which the caller already has). */
function softplusFromExp(z: number, expMinusZ: number): number {
  return z > 0 ? z + Math.log1p(expMinusZ) : Math.log1p(1 / expMinusZ);
}

/** Lower-triangle index of (f, g), f ≥ g, in {@link PassSums.xx}. */
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

function pass(
  rows: StyleRows,
  theta: Float64Array,
  beta: Float64Array,
  options: Pick<StyleFitOptions, 'lambdaTheta' | 'lambdaBeta'>,
  withObjective: boolean,
  mode: Accumulate,
): PassResult {
  const m = rows.table.models.length;
  const { active } = rows;
  const k = active.length;
  const size = m + k;
  const beta4 = new Float64Array(4);
  active.forEach((feature, slot) => {
    beta4[feature] = beta[slot]!;
  });
  const sums = new PassSums(m, false);
  const curvature = mode === Accumulate.Gradient ? undefined : new PassSums(m, true);
  const meat = mode === Accumulate.HessianAndMeat ? new PassSums(m, true) : undefined;
  accumulate(rows, theta, beta4, withObjective, curvature, meat, sums);
  const gradient = new Float64Array(size);
  let penalty = 0;
  for (let j = 0; j < m; j++) {
    gradient[j] = sums.gradient[j]! + options.lambdaTheta * theta[j]!;
    penalty += options.lambdaTheta * theta[j]! ** 2;
  }
  active.forEach((feature, slot) => {
    gradient[m + slot] = sums.gradientBeta[feature]! + options.lambdaBeta * beta[slot]!;
    penalty += options.lambdaBeta * beta[slot]! ** 2;
  });
  const hessian = curvature ? assemble(curvature, m, active) : new Float64Array(0);
  if (curvature) {
    for (let j = 0; j < m; j++) hessian[j * size + j]! += options.lambdaTheta;
    for (let f = 0; f < k; f++) hessian[(m + f) * size + m + f]! += options.lambdaBeta;
  }
  return {
    objective: sums.objective + 0.5 * penalty,
    gradient,
    hessian,
    meat: meat ? assemble(meat, m, active) : undefined,
  };
}

/**
 * Damped Newton for the joint (θ, β) fit of style control (spec §2.5/§2.7). Each iteration is one
 * O(N) pass over the votes plus an (m + k)² Cholesky solve; an accepted line-search trial doubles
 * as the next iteration's evaluation. Warm-start θ from the plain fit to save passes.
 */
export function fitStyleBradleyTerry(rows: StyleRows, options: StyleFitOptions): StyleFit {
  const m = rows.table.models.length;
  const k = rows.active.length;
  const size = m + k;
  const maxIterations = options.maxIterations ?? 200;
  const stepTolerance = options.stepTolerance ?? 1e-7;
  const theta = options.initialTheta ? options.initialTheta.slice() : new Float64Array(m);
  const beta = options.initialBeta ? options.initialBeta.slice() : new Float64Array(k);
  centerPerComponent(theta, options.components);
  let state = pass(rows, theta, beta, options, true, Accumulate.Hessian);
  let iterations = 0;
  let converged = false;
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
      continue;
    }
    for (let j = 0; j < m; j++) theta[j]! += step[j]!;
    for (let f = 0; f < k; f++) beta[f]! += step[m + f]!;
    if (options.lambdaTheta === 0) centerPerComponent(theta, options.components);
    if (maxAbs(step) <= stepTolerance) {
      converged = true;
      break;
    }
    state = pass(rows, theta, beta, options, false, Accumulate.Hessian);
  }
  const withCovariance = options.withCovariance === true;
  const last = pass(
    rows,
    theta,
    beta,
    options,
    true,
    withCovariance ? Accumulate.HessianAndMeat : Accumulate.Gradient,
  );
  const covariance =
    withCovariance && last.meat
      ? sandwichFromParts(last.hessian, last.meat, size, options.components)
      : undefined;
  return {
    theta,
    beta,
    objective: last.objective,
    iterations,
    maxAbsGradient: maxAbs(last.gradient),
    converged,
    covariance,
  };
}
