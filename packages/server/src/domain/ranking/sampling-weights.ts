import type { RandomSource } from './seeded-random';

/** A model that may be drawn into a duel, with what is known about it before the duel. */
export interface PairingCandidate {
  model: string;
  /** Battles the model already has (votes used by the leaderboard). */
  nBattles: number;
  /** False for a model in outage or disabled: never drawn. Default true. */
  available?: boolean | undefined;
  /** Current 95 % interval of its rating; absent for a model without a rating yet. */
  ciLow?: number | undefined;
  ciHigh?: number | undefined;
}

/** How pairs are weighted. */
export type PairingMode = 'uniform' | 'catch_up' | 'most_informative';

/** Options of {@link pairWeights}. */
export interface PairWeightOptions {
  mode: PairingMode;
  /** Catch-up exponent α in w ∝ (n + s)^−α (default 0.4, the value compar:IA's docstring suggests). */
  alpha?: number | undefined;
  /** Smoothing s in w ∝ (n + s)^−α (default 10). */
  smoothing?: number | undefined;
  /** No weight exceeds maxRatio × the smallest weight (default 10). */
  maxRatio?: number | undefined;
  /** Most-informative mode: weight every pair keeps whatever its overlap (default 0.1). */
  floor?: number | undefined;
  /** Pairs that may never meet (for example two anonymous-only models). Default: all allowed. */
  isAllowed?: ((modelA: string, modelB: string) => boolean) | undefined;
}

/** Probability of drawing one unordered pair. */
export interface PairWeight {
  modelA: string;
  modelB: string;
  /** Probabilities over all pairs sum to 1. */
  weight: number;
}

/**
 * Probabilities of the unordered pairs for the next duel.
 *
 * - `uniform`: every allowed pair of available models alike.
 * - `catch_up` (compar:IA's weighted sampling): model weights w_i ∝ (n_i + s)^−α, capped at
 *   maxRatio·min(w), normalised to p; the first model is drawn ∝ p and the second ∝ p among the
 *   others, so P({i, j}) = p_i·p_j·(1/(1 − p_i) + 1/(1 − p_j)). Models with few battles catch up.
 * - `most_informative`: pairs whose current intervals overlap most are preferred: weight ∝
 *   floor + overlap(i, j) / min(width_i, width_j), 1 for a model without an interval, capped at
 *   maxRatio·min. Every pair keeps a positive weight, so the comparison graph stays connected.
 *
 * **Unbiasedness.** The weights use only what was known before the duel (battle counts and
 * intervals from past votes); the selection never looks at the vote being cast. The likelihood of
 * a vote given its pair does not depend on why the pair was drawn, so the Bradley–Terry estimate
 * stays consistent and the weighting only changes which comparisons are made (precision), not
 * what is estimated. Keep the A/B sides fair: {@link drawPair} swaps them with a fair coin, since
 * the model has no position term.
 */
export function pairWeights(candidates: readonly PairingCandidate[], options: PairWeightOptions): PairWeight[] {
  const pool = candidates.filter((candidate) => candidate.available !== false);
  const allowed = options.isAllowed ?? (() => true);
  const maxRatio = options.maxRatio ?? 10;
  const pairs: PairWeight[] = [];
  const modelProbabilities = options.mode === 'catch_up' ? catchUpProbabilities(pool, options) : [];
  for (let i = 0; i < pool.length; i++) {
    for (let j = i + 1; j < pool.length; j++) {
      const first = pool[i]!;
      const second = pool[j]!;
      if (!allowed(first.model, second.model)) continue;
      let weight = 1;
      if (options.mode === 'catch_up') {
        const pi = modelProbabilities[i]!;
        const pj = modelProbabilities[j]!;
        weight = pi * pj * (1 / (1 - pi) + 1 / (1 - pj));
      } else if (options.mode === 'most_informative') {
        weight = (options.floor ?? 0.1) + overlapShare(first, second);
      }
      pairs.push({ modelA: first.model, modelB: second.model, weight });
    }
  }
  if (options.mode === 'most_informative') capRatio(pairs, maxRatio);
  const total = pairs.reduce((sum, pair) => sum + pair.weight, 0);
  for (const pair of pairs) pair.weight = total > 0 ? pair.weight / total : 0;
  return pairs;
}

function catchUpProbabilities(pool: readonly PairingCandidate[], options: PairWeightOptions): number[] {
  const alpha = options.alpha ?? 0.4;
  const smoothing = options.smoothing ?? 10;
  const raw = pool.map((candidate) => Math.pow(Math.max(0, candidate.nBattles) + smoothing, -alpha));
  const smallest = Math.min(...raw);
  const capped = raw.map((weight) => Math.min(weight, (options.maxRatio ?? 10) * smallest));
  const total = capped.reduce((sum, weight) => sum + weight, 0);
  return capped.map((weight) => weight / total);
}

function overlapShare(first: PairingCandidate, second: PairingCandidate): number {
  if (!hasInterval(first) || !hasInterval(second)) return 1;
  const width = Math.min(first.ciHigh - first.ciLow, second.ciHigh - second.ciLow);
  const overlap = Math.min(first.ciHigh, second.ciHigh) - Math.max(first.ciLow, second.ciLow);
  if (width <= 0) return overlap >= 0 ? 1 : 0;
  return Math.min(1, Math.max(0, overlap / width));
}

function hasInterval(candidate: PairingCandidate): candidate is PairingCandidate & { ciLow: number; ciHigh: number } {
  return Number.isFinite(candidate.ciLow) && Number.isFinite(candidate.ciHigh);
}

function capRatio(pairs: PairWeight[], maxRatio: number): void {
  if (pairs.length === 0) return;
  const smallest = Math.min(...pairs.map((pair) => pair.weight));
  for (const pair of pairs) pair.weight = Math.min(pair.weight, maxRatio * smallest);
}

/**
 * Draws one pair ∝ weight and swaps its sides with a fair coin. Returns undefined when there is
 * no pair to draw.
 */
export function drawPair(weights: readonly PairWeight[], random: RandomSource): { modelA: string; modelB: string } | undefined {
  if (weights.length === 0) return undefined;
  let target = random.nextDouble();
  let chosen = weights[weights.length - 1]!;
  for (const pair of weights) {
    target -= pair.weight;
    if (target < 0) {
      chosen = pair;
      break;
    }
  }
  return random.nextDouble() < 0.5 ? { modelA: chosen.modelA, modelB: chosen.modelB } : { modelA: chosen.modelB, modelB: chosen.modelA };
}
