/**
 * Dense symmetric positive-definite solves on row-major `Float64Array`s. The ranking systems are
 * small (one row per model, plus the style coefficients), so a plain Cholesky factorisation is
 * both the simplest and the fastest choice.
 */

/**
 * Factorises the SPD matrix `a` (n×n, row-major) in place into its lower Cholesky factor L.
 * A pivot that is not clearly positive (rounding on a nearly singular matrix) is lifted to a
 * tiny multiple of the largest diagonal entry instead of failing.
 */
export function choleskyInPlace(a: Float64Array, n: number): void {
  let largestDiagonal = 0;
  for (let i = 0; i < n; i++) largestDiagonal = Math.max(largestDiagonal, Math.abs(a[i * n + i]!));
  const floor = Math.max(largestDiagonal * 1e-14, 1e-300);
  for (let j = 0; j < n; j++) {
    const rowJ = j * n;
    let diagonal = a[rowJ + j]!;
    for (let k = 0; k < j; k++) diagonal -= a[rowJ + k]! * a[rowJ + k]!;
    const pivot = Math.sqrt(diagonal > floor ? diagonal : floor);
    a[rowJ + j] = pivot;
    const inversePivot = 1 / pivot;
    for (let i = j + 1; i < n; i++) {
      const rowI = i * n;
      let sum = a[rowI + j]!;
      for (let k = 0; k < j; k++) sum -= a[rowI + k]! * a[rowJ + k]!;
      a[rowI + j] = sum * inversePivot;
    }
  }
}

/** Solves L Lᵀ x = b in place in `b`, with `l` from {@link choleskyInPlace}. */
export function choleskySolveInPlace(l: Float64Array, n: number, b: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const row = i * n;
    let sum = b[i]!;
    for (let k = 0; k < i; k++) sum -= l[row + k]! * b[k]!;
    b[i] = sum / l[row + i]!;
  }
  for (let i = n - 1; i >= 0; i--) {
    let sum = b[i]!;
    for (let k = i + 1; k < n; k++) sum -= l[k * n + i]! * b[k]!;
    b[i] = sum / l[i * n + i]!;
  }
}

/** Solves the SPD system a x = b; `a` is left unchanged. */
export function solveSpd(a: Float64Array, n: number, b: Float64Array): Float64Array {
  const factor = a.slice();
  choleskyInPlace(factor, n);
  const x = b.slice();
  choleskySolveInPlace(factor, n, x);
  return x;
}

/** The inverse of the SPD matrix `a` (n×n); `a` is left unchanged. */
export function invertSpd(a: Float64Array, n: number): Float64Array {
  const factor = a.slice();
  choleskyInPlace(factor, n);
  const inverse = new Float64Array(n * n);
  const column = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    column.fill(0);
    column[j] = 1;
    choleskySolveInPlace(factor, n, column);
    for (let i = 0; i < n; i++) inverse[i * n + j] = column[i]!;
  }
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const mean = 0.5 * (inverse[i * n + j]! + inverse[j * n + i]!);
      inverse[i * n + j] = mean;
      inverse[j * n + i] = mean;
    }
  }
  return inverse;
}

/** The product x·y of two n×n row-major matrices. */
export function multiply(x: Float64Array, y: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const rowOut = i * n;
    for (let k = 0; k < n; k++) {
      const factor = x[i * n + k]!;
      if (factor === 0) continue;
      const rowY = k * n;
      for (let j = 0; j < n; j++) out[rowOut + j]! += factor * y[rowY + j]!;
    }
  }
  return out;
}

/** max |v_i|. */
export function maxAbs(v: ArrayLike<number>): number {
  let largest = 0;
  for (let i = 0; i < v.length; i++) largest = Math.max(largest, Math.abs(v[i]!));
  return largest;
}
