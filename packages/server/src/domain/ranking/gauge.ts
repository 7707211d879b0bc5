/**
 * The gauge of Bradley–Terry strengths: θ is only defined up to a constant per connected
 * component. The reference gauge is Σθ = 0 per component (mean rating 1000), spec §2.3.
 */

/** Rating points per unit of natural-log strength: 400 / ln 10 ≈ 173.72. */
export const SCALE = 400 / Math.LN10;

/** Rating of a strength: R = 1000 + SCALE·θ. */
export function toRating(theta: number): number {
  return 1000 + SCALE * theta;
}

/** Shifts θ so that the mean over the members of each component is 0 (in place). */
export function centerPerComponent(theta: Float64Array, components: readonly number[][]): void {
  for (const members of components) {
    if (members.length === 0) continue;
    let sum = 0;
    for (const model of members) sum += theta[model]!;
    const mean = sum / members.length;
    for (const model of members) theta[model]! -= mean;
  }
}

/** Adds Q = Σ_c 1_c 1_cᵀ / |c| to the top-left block of the row-major matrix `h` (stride n). */
export function addGaugeProjector(h: Float64Array, n: number, components: readonly number[][]): void {
  for (const members of components) {
    const value = 1 / members.length;
    for (const x of members) for (const y of members) h[x * n + y]! += value;
  }
}

/**
 * P·M·P for the row-major n×n matrix `m`, with P = I − Q acting on the first `modelCount`
 * coordinates only (the strengths; style coefficients are left as they are). This maps
 * (H + Q)⁻¹ to the generalised inverse in the mean-zero gauge.
 */
export function projectOutGauge(
  m: Float64Array,
  n: number,
  components: readonly number[][],
): Float64Array {
  const out = m.slice();
  for (const members of components) {
    const size = members.length;
    // rows: out = P·M
    for (let column = 0; column < n; column++) {
      let sum = 0;
      for (const model of members) sum += out[model * n + column]!;
      const mean = sum / size;
      for (const model of members) out[model * n + column]! -= mean;
    }
  }
  for (const members of components) {
    const size = members.length;
    // columns: out = (P·M)·P
    for (let row = 0; row < n; row++) {
      let sum = 0;
      for (const model of members) sum += out[row * n + model]!;
      const mean = sum / size;
      for (const model of members) out[row * n + model]! -= mean;
    }
  }
  return out;
}

/**
 * Re-expresses a strength covariance (n×n, row-major, first `modelCount` coordinates are models)
 * in another gauge: each component is shifted by the mean of its `reference` members, i.e.
 * θ'_j = θ_j − mean_{k∈ref(c)} θ_k. With one reference model per component this is the named
 * anchor's SE, sqrt(C_jj + C_aa − 2C_ja).
 */
export function regaugeCovariance(
  covariance: Float64Array,
  n: number,
  components: readonly number[][],
  reference: readonly number[][],
): Float64Array {
  const transform = new Float64Array(n * n);
  for (let i = 0; i < n; i++) transform[i * n + i] = 1;
  components.forEach((members, index) => {
    const refs = reference[index] ?? [];
    if (refs.length === 0) return;
    for (const model of members) for (const ref of refs) transform[model * n + ref]! -= 1 / refs.length;
  });
  // T C Tᵀ
  const tc = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < n; k++) {
      const factor = transform[i * n + k]!;
      if (factor === 0) continue;
      for (let j = 0; j < n; j++) tc[i * n + j]! += factor * covariance[k * n + j]!;
    }
  }
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let sum = 0;
      for (let k = 0; k < n; k++) {
        const factor = transform[j * n + k]!;
        if (factor !== 0) sum += tc[i * n + k]! * factor;
      }
      out[i * n + j] = sum;
    }
  }
  return out;
}
