import type { RandomSource } from './seeded-random';

/** Stirling-series correction ln(k!) − [(k + ½)ln(k + 1) − (k + 1) + ½ln(2π)] for k = 0…9. */
const STIRLING_CORRECTION = [
  0.08106146679532726, 0.04134069595540929, 0.02767792568499834, 0.02079067210376509, 0.01664469118982119, 0.01387612882307075,
  0.01189670994589177, 0.01041126526197209, 0.009255462182712733, 0.008330563433362871,
];

function stirlingCorrection(k: number): number {
  if (k < 10) return STIRLING_CORRECTION[k]!;
  const k1 = k + 1;
  const k1Squared = k1 * k1;
  return (1 / 12 - (1 / 360 - 1 / 1260 / k1Squared) / k1Squared) / k1;
}

/**
 * One exact draw from Binomial(n, p). Small means use sequential inversion; n·p ≥ 10 uses
 * Hörmann's BTRD (transformed rejection with decomposition, 1993), whose cost does not grow with n.
 *
 * @param n number of trials, a non-negative integer
 * @param p success probability in [0, 1]
 */
export function sampleBinomial(n: number, p: number, random: RandomSource): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (p > 0.5) return n - sampleBinomialHalf(n, 1 - p, random);
  return sampleBinomialHalf(n, p, random);
}

function sampleBinomialHalf(n: number, p: number, random: RandomSource): number {
  return n * p < 10 ? sampleByInversion(n, p, random) : sampleByBtrd(n, p, random);
}

function sampleByInversion(n: number, p: number, random: RandomSource): number {
  const q = 1 - p;
  const ratio = p / q;
  const scaled = (n + 1) * ratio;
  const start = Math.exp(n * Math.log1p(-p));
  for (;;) {
    let u = random.nextDouble();
    let probability = start;
    let x = 0;
    while (u > probability) {
      u -= probability;
      x += 1;
      if (x > n) break;
      probability *= scaled / x - ratio;
    }
    if (x <= n) return x;
  }
}

function sampleByBtrd(n: number, p: number, random: RandomSource): number {
  const q = 1 - p;
  const mode = Math.floor((n + 1) * p);
  const r = p / q;
  const nr = (n + 1) * r;
  const npq = n * p * q;
  const sqrtNpq = Math.sqrt(npq);
  const b = 1.15 + 2.53 * sqrtNpq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = n * p + 0.5;
  const alpha = (2.83 + 5.1 / b) * sqrtNpq;
  const vr = 0.92 - 4.2 / b;
  const urvr = 0.86 * vr;
  for (;;) {
    let v = random.nextDouble();
    let u: number;
    if (v <= urvr) {
      u = v / vr - 0.43;
      return Math.floor(((2 * a) / (0.5 - Math.abs(u)) + b) * u + c);
    }
    if (v >= vr) {
      u = random.nextDouble() - 0.5;
    } else {
      u = v / vr - 0.93;
      u = Math.sign(u) * 0.5 - u;
      v = random.nextDouble() * vr;
    }
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (k < 0 || k > n) continue;
    v = (v * alpha) / (a / (us * us) + b);
    const km = Math.abs(k - mode);
    if (km <= 15) {
      let f = 1;
      if (mode < k) {
        for (let i = mode + 1; i <= k; i++) f *= nr / i - r;
      } else if (mode > k) {
        for (let i = k + 1; i <= mode; i++) v *= nr / i - r;
      }
      if (v <= f) return k;
      continue;
    }
    v = Math.log(v);
    const rho = (km / npq) * (((km / 3 + 0.625) * km + 1 / 6) / npq + 0.5);
    const t = (-km * km) / (2 * npq);
    if (v < t - rho) return k;
    if (v > t + rho) continue;
    const nm = n - mode + 1;
    const h = (mode + 0.5) * Math.log((mode + 1) / (r * nm)) + stirlingCorrection(mode) + stirlingCorrection(n - mode);
    const nk = n - k + 1;
    const bound =
      h + (n + 1) * Math.log(nm / nk) + (k + 0.5) * Math.log((nk * r) / (k + 1)) - stirlingCorrection(k) - stirlingCorrection(n - k);
    if (v <= bound) return k;
  }
}

/**
 * Draws Multinomial(total, weights / Σweights) into `out` by conditional binomials. `weights`
 * are non-negative integers (vote counts), so every conditional probability is an exact ratio of
 * integers: the draw is the same as resampling `total` votes with replacement.
 */
export function sampleMultinomial(total: number, weights: Float64Array, out: Float64Array, random: RandomSource): void {
  let remainingWeight = 0;
  for (let i = 0; i < weights.length; i++) remainingWeight += weights[i]!;
  let remaining = total;
  for (let i = 0; i < weights.length; i++) {
    const weight = weights[i]!;
    if (remaining === 0 || weight === 0) {
      out[i] = 0;
    } else if (weight >= remainingWeight) {
      out[i] = remaining;
      remaining = 0;
    } else {
      const draw = sampleBinomial(remaining, weight / remainingWeight, random);
      out[i] = draw;
      remaining -= draw;
    }
    remainingWeight -= weight;
  }
}
