import { estimateImpact } from './estimate-impact';
import type { ModelFacts } from './model-parameters';
import type { ImpactOptions } from './resolve-impact-settings';
import { rangeMean, scaleRange, sumRanges, type ValueRange } from './value-range';

/** A range with its midpoint, for tables that show one figure and a band. */
export interface RangeWithMean extends ValueRange {
  mean: number;
}

/**
 * Energy in Wh of one million output tokens of a model, without latency cap: compar:IA's
 * `wh_per_million_token` (mean = midpoint of the kWh range × 1000, in that order, so that under the
 * compar:IA switch the figure is bit-identical to compar:IA's published one).
 * @throws ImpactError when the model size is unknown or an option is invalid.
 */
export function whPerMillionOutputTokens(model: ModelFacts, options: ImpactOptions = {}): RangeWithMean {
  const { energyKwh } = estimateImpact(model, 1_000_000, options).impacts;
  return { ...scaleRange(energyKwh, 1000), mean: rangeMean(energyKwh) * 1000 };
}

/**
 * Energy in Wh per 1,000 output tokens of a model (the leaderboard's energy column): the per-million
 * figure divided by 1,000. compar:IA's ranking page shows `Math.round` of the mean.
 * @throws ImpactError when the model size is unknown or an option is invalid.
 */
export function whPer1000OutputTokens(model: ModelFacts, options: ImpactOptions = {}): RangeWithMean {
  const perMillion = whPerMillionOutputTokens(model, options);
  return { min: perMillion.min / 1000, max: perMillion.max / 1000, mean: perMillion.mean / 1000 };
}

/**
 * Mean energy (Wh) of a set of duel sides, e.g. every side a model played: the mean of the ranges
 * bound-wise, with its midpoint and the number of sides; `null` when there are none.
 */
export function meanEnergyPerDuel(energiesWh: readonly ValueRange[]): (RangeWithMean & { duels: number }) | null {
  if (energiesWh.length === 0) return null;
  const total = sumRanges(energiesWh);
  const mean = { min: total.min / energiesWh.length, max: total.max / energiesWh.length };
  return { ...mean, mean: rangeMean(mean), duels: energiesWh.length };
}

/** The energy of one side of one duel, as stored after the reveal. */
export interface DuelSideEnergy {
  modelId: string;
  energyWh: ValueRange;
}

/**
 * Mean energy per duel for every model, from the sides of revealed duels (a model facing itself
 * counts twice, once per side).
 */
export function meanEnergyPerDuelByModel(sides: Iterable<DuelSideEnergy>): Map<string, RangeWithMean & { duels: number }> {
  const byModel = new Map<string, ValueRange[]>();
  for (const side of sides) {
    const energies = byModel.get(side.modelId);
    if (energies) energies.push(side.energyWh);
    else byModel.set(side.modelId, [side.energyWh]);
  }
  const means = new Map<string, RangeWithMean & { duels: number }>();
  for (const [modelId, energies] of byModel) means.set(modelId, meanEnergyPerDuel(energies) as RangeWithMean & { duels: number });
  return means;
}
