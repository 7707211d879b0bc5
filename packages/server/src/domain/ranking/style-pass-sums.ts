import type { StyleRows } from './style-features';
import { OUTCOME_LABEL } from './vote-table';

/** Sums of one pass over the votes, before assembly (4 features, lower-triangle XᵀWX). */
export class PassSums {
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
export function accumulate(
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
  const second = new RunCurvature();
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
    second.add(w, x0, x1, x2, x3);
  }
  out[0] = residualSum;
  out[1] = objective;
  out[2] = g0;
  out[3] = g1;
  out[4] = g2;
  out[5] = g3;
  second.addTo(curvature, rows.runA[run]!, rows.runB[run]!, m);
}

/** The second-order sums of one run with vote weights w: Σw, Σw·x and the lower triangle of Σw·xxᵀ. */
class RunCurvature {
  total = 0;
  c0 = 0;
  c1 = 0;
  c2 = 0;
  c3 = 0;
  s00 = 0;
  s10 = 0;
  s11 = 0;
  s20 = 0;
  s21 = 0;
  s22 = 0;
  s30 = 0;
  s31 = 0;
  s32 = 0;
  s33 = 0;

  add(w: number, x0: number, x1: number, x2: number, x3: number): void {
    this.total += w;
    const w0 = w * x0;
    const w1 = w * x1;
    const w2 = w * x2;
    const w3 = w * x3;
    this.c0 += w0;
    this.c1 += w1;
    this.c2 += w2;
    this.c3 += w3;
    this.s00 += w0 * x0;
    this.s10 += w1 * x0;
    this.s11 += w1 * x1;
    this.s20 += w2 * x0;
    this.s21 += w2 * x1;
    this.s22 += w2 * x2;
    this.s30 += w3 * x0;
    this.s31 += w3 * x1;
    this.s32 += w3 * x2;
    this.s33 += w3 * x3;
  }

  /** Adds the run's sums to a pass's: its ordered pair (a, b), A's and B's feature sums, XᵀWX. */
  addTo(target: PassSums, a: number, b: number, m: number): void {
    target.pair[a * m + b]! += this.total;
    const { crossA, crossB, xx } = target;
    crossA[a * 4]! += this.c0;
    crossA[a * 4 + 1]! += this.c1;
    crossA[a * 4 + 2]! += this.c2;
    crossA[a * 4 + 3]! += this.c3;
    crossB[b * 4]! += this.c0;
    crossB[b * 4 + 1]! += this.c1;
    crossB[b * 4 + 2]! += this.c2;
    crossB[b * 4 + 3]! += this.c3;
    xx[0]! += this.s00;
    xx[1]! += this.s10;
    xx[2]! += this.s11;
    xx[3]! += this.s20;
    xx[4]! += this.s21;
    xx[5]! += this.s22;
    xx[6]! += this.s30;
    xx[7]! += this.s31;
    xx[8]! += this.s32;
    xx[9]! += this.s33;
  }
}

/** Lower-triangle index of (f, g) in {@link PassSums.xx}. */
function triangle(f: number, g: number): number {
  return f >= g ? (f * (f + 1)) / 2 + g : (g * (g + 1)) / 2 + f;
}

/** [[Laplacian of the ordered-pair sums, cross], [crossᵀ, XᵀWX]] over the active features. */
export function assemble(sums: PassSums, m: number, active: readonly number[]): Float64Array {
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
