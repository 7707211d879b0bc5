/**
 * The gauge of Bradley–Terry strengths: θ is only defined up to a constant per connected
 * component. The reference gauge is Σθ = 0 per component (mean rating 1000), docs/ranking.md#gauge-and-anchor.
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
export function projectOutGauge(m: Float64Array, n: number, components: readonly number[][]): Float64Array {
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
 * Variances of the strengths in another gauge: each component is shifted by the mean of its
 * `reference` members, θ'_j = θ_j − mean_{k∈ref(c)} θ_k, so
 * Var θ'_j = C_jj − 2·mean_k C_jk + mean_{k,l} C_kl. With one reference model per component
 * this is the named anchor's SE², C_jj + C_aa − 2C_ja. `covariance` is n×n row-major (models
 * first); returns the variances of the models of `components`.
 */
export function regaugedVariances(
  covariance: Float64Array,
  n: number,
  components: readonly number[][],
  reference: readonly number[][],
): Float64Array {
  const variances = new Float64Array(n);
  components.forEach((members, index) => {
    const refs = reference[index] ?? [];
    let refBlock = 0;
    for (const k of refs) for (const l of refs) refBlock += covariance[k * n + l]!;
    refBlock = refs.length > 0 ? refBlock / (refs.length * refs.length) : 0;
    for (const j of members) {
      let cross = 0;
      for (const k of refs) cross += covariance[j * n + k]!;
      cross = refs.length > 0 ? cross / refs.length : 0;
      variances[j] = covariance[j * n + j]! - 2 * cross + refBlock;
    }
  });
  return variances;
}
