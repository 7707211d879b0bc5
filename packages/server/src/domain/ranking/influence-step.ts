import { choleskySolveInPlace } from './linear-algebra';

/**
 * One group's votes summed per unordered pair at the full fit θ̂: the pair's curvature
 * w = Σ p(1−p) and its score r = Σ (p − y), with p = σ(θ_a − θ_b) and y the vote's label for a.
 * The group's score vector is s_g = Σ_pairs r (e_a − e_b) and its Hessian H_g = Σ w (e_a − e_b)(e_a − e_b)ᵀ.
 */
export interface GroupPairs {
  a: number[];
  b: number[];
  curvature: number[];
  score: number[];
}

/** Where a pivot of a Cholesky factor counts as lost: removing the group leaves a model unidentified. */
const SINGULAR_PIVOT = 1e-9;

/**
 * The Newton step of the objective without the group, from the full optimum:
 * Δ = (H + Q − H_g)⁻¹ s_g, with (H + Q)⁻¹ given (`inverse`, m×m). Q is the gauge projector, so Δ
 * sums to zero per component (s_g does, and (H − H_g)·1_c = 0). With r distinct pairs in the group,
 * Sherman–Morrison–Woodbury on V = U·W^½ costs an r×r Cholesky:
 * (A − VVᵀ)⁻¹ = A⁻¹ + A⁻¹V (I − VᵀA⁻¹V)⁻¹ VᵀA⁻¹; once r passes m/2 the m×m system is solved
 * directly instead. Returns null when the group holds all the information on some model or
 * difference (the system without it is singular: leaving the group out leaves a rating undefined).
 */
export function leaveGroupOutStep(
  inverse: Float64Array,
  regularisedHessian: Float64Array,
  m: number,
  group: GroupPairs,
): Float64Array | null {
  const r = group.a.length;
  const score = new Float64Array(m);
  for (let k = 0; k < r; k++) {
    score[group.a[k]!]! += group.score[k]!;
    score[group.b[k]!]! -= group.score[k]!;
  }
  return r * 2 <= m ? woodburyStep(inverse, m, group, score) : directStep(regularisedHessian, m, group, score);
}

function multiplyVector(matrix: Float64Array, m: number, vector: Float64Array): Float64Array {
  const out = new Float64Array(m);
  for (let row = 0; row < m; row++) {
    let sum = 0;
    const base = row * m;
    for (let column = 0; column < m; column++) sum += matrix[base + column]! * vector[column]!;
    out[row] = sum;
  }
  return out;
}

function woodburyStep(inverse: Float64Array, m: number, group: GroupPairs, score: Float64Array): Float64Array | null {
  const r = group.a.length;
  const base = multiplyVector(inverse, m, score);
  // Columns of A⁻¹V: √w_k (A⁻¹e_a − A⁻¹e_b), A⁻¹ symmetric so rows serve as columns.
  const columns: Float64Array[] = [];
  for (let k = 0; k < r; k++) {
    const root = Math.sqrt(group.curvature[k]!);
    const column = new Float64Array(m);
    const rowA = group.a[k]! * m;
    const rowB = group.b[k]! * m;
    for (let x = 0; x < m; x++) column[x] = root * (inverse[rowA + x]! - inverse[rowB + x]!);
    columns.push(column);
  }
  // Capacitance I − VᵀA⁻¹V and the right-hand side VᵀA⁻¹s.
  const capacitance = new Float64Array(r * r);
  const rhs = new Float64Array(r);
  for (let k = 0; k < r; k++) {
    const root = Math.sqrt(group.curvature[k]!);
    rhs[k] = root * (base[group.a[k]!]! - base[group.b[k]!]!);
    for (let l = 0; l < r; l++) {
      const column = columns[l]!;
      capacitance[k * r + l] = (k === l ? 1 : 0) - root * (column[group.a[k]!]! - column[group.b[k]!]!);
    }
  }
  if (!factorIfDefinite(capacitance, r, 1)) return null;
  choleskySolveInPlace(capacitance, r, rhs);
  for (let k = 0; k < r; k++) {
    const column = columns[k]!;
    for (let x = 0; x < m; x++) base[x]! += column[x]! * rhs[k]!;
  }
  return base;
}

function directStep(regularisedHessian: Float64Array, m: number, group: GroupPairs, score: Float64Array): Float64Array | null {
  const system = regularisedHessian.slice();
  let largest = 0;
  for (let x = 0; x < m; x++) largest = Math.max(largest, system[x * m + x]!);
  for (let k = 0; k < group.a.length; k++) {
    const a = group.a[k]!;
    const b = group.b[k]!;
    const w = group.curvature[k]!;
    system[a * m + a]! -= w;
    system[b * m + b]! -= w;
    system[a * m + b]! += w;
    system[b * m + a]! += w;
  }
  if (!factorIfDefinite(system, m, largest)) return null;
  choleskySolveInPlace(system, m, score);
  return score;
}

/** Lower Cholesky factor in place (as choleskyInPlace); false when a pivot² falls below SINGULAR_PIVOT × `scale`, where choleskyInPlace would lift it. */
function factorIfDefinite(matrix: Float64Array, n: number, scale: number): boolean {
  const probe = matrix.slice();
  for (let j = 0; j < n; j++) {
    let diagonal = probe[j * n + j]!;
    for (let k = 0; k < j; k++) diagonal -= probe[j * n + k]! ** 2;
    if (!(diagonal > SINGULAR_PIVOT * scale)) return false;
    const pivot = Math.sqrt(diagonal);
    probe[j * n + j] = pivot;
    for (let i = j + 1; i < n; i++) {
      let sum = probe[i * n + j]!;
      for (let k = 0; k < j; k++) sum -= probe[i * n + k]! * probe[j * n + k]!;
      probe[i * n + j] = sum / pivot;
    }
  }
  matrix.set(probe);
  return true;
}
