/**
 * Energy classes A–E (docs/impact.md#energy-classes): an answer's energy placed among the energies
 * the catalogue's models spend on one reference answer, so that a visitor reads "class B" where
 * "0.42–1.3 Wh" says little. The four thresholds are the 20, 40, 60 and 80 % quantiles of that
 * distribution: each class holds a fifth of the catalogue's models. Pure: the caller passes the
 * models' energies (EcoLogits, over the same method and zone as the reveal).
 */

export const ENERGY_CLASSES = ['A', 'B', 'C', 'D', 'E'] as const;
export type EnergyClass = (typeof ENERGY_CLASSES)[number];

/**
 * The answer every model is sized on: 400 output tokens, about 300 words, a full answer to a chat
 * question (docs/impact.md#energy-classes says why this length; classes do not depend on it much,
 * since EcoLogits' energy is close to proportional to tokens for every model).
 */
export const REFERENCE_ANSWER_TOKENS = 400;

/** Quantile `p` (0 … 1) of ascending `sorted` values, linearly interpolated between ranks (Hyndman & Fan type 7, R's default). */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('the quantile of no values');
  const position = (sorted.length - 1) * p;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

/**
 * The four thresholds between classes from the catalogue's models' energy on the reference answer
 * (Wh, one value a model: the midpoint of its range), or undefined with fewer than two distinct
 * values: one model, or models all alike, say nothing of better or worse.
 */
export function energyClassThresholds(referenceWh: readonly number[]): [number, number, number, number] | undefined {
  const sorted = referenceWh.filter((wh) => Number.isFinite(wh) && wh >= 0).sort((left, right) => left - right);
  if (sorted.length < 2 || sorted[0] === sorted[sorted.length - 1]) return undefined;
  return [quantile(sorted, 0.2), quantile(sorted, 0.4), quantile(sorted, 0.6), quantile(sorted, 0.8)];
}

/** The class of an energy (Wh): A up to the first threshold included, … E above the fourth. */
export function energyClassOf(wh: number, thresholds: readonly [number, number, number, number]): EnergyClass {
  const index = thresholds.findIndex((threshold) => wh <= threshold);
  return ENERGY_CLASSES[index === -1 ? 4 : index]!;
}

/**
 * How many times the energy of one side the other used, from their ranges' midpoints (how the
 * reveal's equivalents read a range too): undefined when either is zero or unknown.
 */
export function energyRatio(a: { min: number; max: number }, b: { min: number; max: number }): number | undefined {
  const midA = (a.min + a.max) / 2;
  const midB = (b.min + b.max) / 2;
  if (!(midA > 0 && midB > 0)) return undefined;
  return midA / midB;
}
