/** z for a two-sided 95 % normal interval. */
export const Z_95 = 1.959964;

/** Rank bounds of each model from interval overlap; 0 for models left out of the ranking. */
export interface RankBounds {
  best: Int32Array;
  worst: Int32Array;
}

/**
 * Rank intervals from confidence intervals (docs/ranking.md#uncertainty-and-ranks): best = 1 + #{j: low_j > high_i} (FastChat's
 * displayed rank), worst = N − #{j: high_j < low_i} (compar:IA's), over the `included` models
 * (all by default); N is the number of included models.
 */
export function rankBoundsFromIntervals(
  low: ArrayLike<number>,
  high: ArrayLike<number>,
  included?: ArrayLike<boolean | number>,
): RankBounds {
  const count = low.length;
  const isIncluded = (model: number): boolean => (included ? Boolean(included[model]) : true);
  let n = 0;
  for (let model = 0; model < count; model++) if (isIncluded(model)) n += 1;
  const best = new Int32Array(count);
  const worst = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    if (!isIncluded(i)) continue;
    let above = 0;
    let below = 0;
    for (let j = 0; j < count; j++) {
      if (j === i || !isIncluded(j)) continue;
      if (low[j]! > high[i]!) above += 1;
      if (high[j]! < low[i]!) below += 1;
    }
    best[i] = 1 + above;
    worst[i] = n - below;
  }
  return { best, worst };
}

/** Competition rank by point estimate: 1 + the number of included models rated strictly higher. */
export function competitionRanks(ratings: ArrayLike<number>, included?: ArrayLike<boolean | number>): Int32Array {
  const ranks = new Int32Array(ratings.length);
  for (let i = 0; i < ratings.length; i++) {
    if (included && !included[i]) continue;
    let higher = 0;
    for (let j = 0; j < ratings.length; j++) {
      if (included && !included[j]) continue;
      if (ratings[j]! > ratings[i]!) higher += 1;
    }
    ranks[i] = 1 + higher;
  }
  return ranks;
}

/**
 * Tiers of models whose intervals overlap, built greedily from the top (the compar:IA README's
 * letter tiers): models are taken by decreasing rating; the first one leads tier 1, and each next
 * model joins the current tier while its upper bound reaches the leader's lower bound, otherwise
 * it leads a new tier. Returns the 1-based tier of each included model, 0 for the others.
 */
export function overlapTiers(
  ratings: ArrayLike<number>,
  low: ArrayLike<number>,
  high: ArrayLike<number>,
  included?: ArrayLike<boolean | number>,
): Int32Array {
  const order = Array.from({ length: ratings.length }, (_, model) => model)
    .filter((model) => !included || Boolean(included[model]))
    .sort((x, y) => ratings[y]! - ratings[x]! || x - y);
  const tiers = new Int32Array(ratings.length);
  let tier = 0;
  let leader = -1;
  for (const model of order) {
    if (leader === -1 || high[model]! < low[leader]!) {
      tier += 1;
      leader = model;
    }
    tiers[model] = tier;
  }
  return tiers;
}
