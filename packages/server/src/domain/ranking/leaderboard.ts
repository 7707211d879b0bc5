import { bootstrapBradleyTerry, bootstrapStyleBradleyTerry, summarizeReplicates } from './bootstrap';
import { aggregatePairs } from './aggregate-cells';
import { regaugedVariances, SCALE } from './gauge';
import { competitionRanks, overlapTiers, rankBoundsFromIntervals, Z_95 } from './ranks-and-tiers';
import { RankingError } from './ranking-error';
import type { RandomSource } from './seeded-random';
import type { StyleRule } from './style-features';
import {
  coreMembers,
  fitVariant,
  missingMleReason,
  prepareRanking,
  type RankingData,
  type RankingVariant,
  type StyleCoefficients,
  type VariantFit,
} from './variants';
import type { VoteTable } from './vote-table';
import { weightTotals, type VoteWeighting, type WeightingSummary } from './weighting';

/** Options of {@link computeLeaderboard}. */
export interface LeaderboardOptions {
  /**
   * Estimator. Default: `style_fastchat` with `style`, else `bt_mle` when the finite MLE exists
   * and `bt_ridge` when it does not. An unpenalised variant asked for on data without a finite
   * MLE falls back to `bt_ridge` (and says so in `note`).
   */
  variant?: RankingVariant | undefined;
  /** Style control (default false); ignored when `variant` names a style variant. */
  style?: boolean | undefined;
  /** Style feature rule (default FastChat's). */
  styleRule?: StyleRule | undefined;
  /** Bootstrap intervals instead of sandwich ones: rounds and the seeded random source. */
  bootstrap?: { rounds: number; random: RandomSource } | undefined;
  /** FastChat-style named anchor: shift every rating so that `model` sits at `rating`. */
  anchor?: { model: string; rating: number } | undefined;
  /** Vote weights and clusters, by table row (docs/ranking.md#weights-and-clusters); not with a bootstrap. */
  weighting?: VoteWeighting | undefined;
}

/** One leaderboard line. Ratings are on the 1000 + 400/ln10·θ scale. */
export interface LeaderboardRow {
  model: string;
  /** Display rating: component core (or the named anchor) as reference. */
  rating: number;
  /** Standard error in points (sandwich, or the bootstrap SD with a bootstrap). */
  se: number;
  /** 95 % interval: rating ± 1.96·se, or the bootstrap percentiles. */
  ciLow: number;
  ciHigh: number;
  /** 1 + number of ranked models rated higher; null for provisional models. */
  rank: number | null;
  /** 1 + #{j: low_j > high_i} among ranked models (FastChat's displayed rank). */
  rankBest: number | null;
  /** N − #{j: high_j < low_i} among ranked models (compar:IA's). */
  rankWorst: number | null;
  /** Greedy overlap tier, 1 = top. */
  tier: number | null;
  nBattles: number;
  wins: number;
  losses: number;
  ties: number;
  bothBad: number;
  /** (wins + ½·(ties + both-bad)) / battles: the score the model is fitted to. */
  winRate: number;
  bothBadRate: number;
  /** Not enough data to rank: outside the largest strongly connected part of its component. */
  provisional: boolean;
  /** Index into {@link Leaderboard.components}. */
  component: number;
  seSandwich: number;
  seHessian: number;
}

/** A computed leaderboard. */
export interface Leaderboard {
  variant: RankingVariant | null;
  requestedVariant: RankingVariant | null;
  /** Why the variant differs from the one requested, if it does. */
  note: string | null;
  nVotesRaw: number;
  nVotesUsed: number;
  nSelfPlayDropped: number;
  nModels: number;
  nCells: number;
  mleExists: boolean;
  components: string[][];
  strongComponents: string[][];
  provisionalModels: string[];
  uncertainty: 'sandwich' | 'bootstrap';
  bootstrap: { rounds: number; roundsWithoutMle: number } | null;
  anchor: { model: string; rating: number } | null;
  /** Ranked models by decreasing rating, then provisional ones. */
  rows: LeaderboardRow[];
  style: StyleCoefficients | null;
  fit: { objective: number; iterations: number; maxAbsGradient: number; converged: boolean } | null;
  /** Weights and clusters of the votes, when the fit had them. */
  weighting: WeightingSummary | null;
}

/**
 * The whole pipeline of docs/ranking.md on a vote table: aggregate, check existence and flag provisional
 * models, fit the variant, compute sandwich (or bootstrap) intervals, rank bounds and tiers.
 * Deterministic for a given table, options and random seed.
 */
export function computeLeaderboard(table: VoteTable, options: LeaderboardOptions = {}): Leaderboard {
  if (options.weighting && options.bootstrap && options.bootstrap.rounds > 0) {
    throw new RankingError('invalid_option', 'a bootstrap resamples votes, not clusters: weights and clusters take sandwich intervals');
  }
  const data = prepareRanking(table, options.weighting);
  const requested = options.variant ?? null;
  if (table.length === 0) return emptyLeaderboard(table, requested);
  const { variant, note } = chooseVariant(data, options);
  const fit = fitVariant(data, variant, { styleRule: options.styleRule });
  const anchorIndex = anchorOf(table, options);
  const gauge: Gauge = {
    components: anchorIndex === undefined ? data.graph.components : [table.models.map((_, i) => i)],
    reference: anchorIndex === undefined ? coreMembers(data.graph) : [[anchorIndex]],
    offset: anchorIndex === undefined ? 1000 : options.anchor!.rating,
  };
  const theta = shiftToReference(fit.theta, gauge.components, gauge.reference);
  const ratings = theta.map((value) => gauge.offset + SCALE * value);
  const sandwich = displayErrors(fit, gauge.components, gauge.reference, 'sandwich');
  const hessian = displayErrors(fit, gauge.components, gauge.reference, 'hessian');
  const intervals = displayIntervals(data, fit, options.bootstrap, gauge, ratings, sandwich);
  const rows = leaderboardRows(table, data, { ratings, sandwich, hessian, ...intervals });
  const names = (groups: number[][]): string[][] => groups.map((group) => group.map((model) => table.models[model]!));
  return {
    variant,
    requestedVariant: requested,
    note,
    nVotesRaw: table.votesRaw,
    nVotesUsed: table.length,
    nSelfPlayDropped: table.selfPlayDropped,
    nModels: table.models.length,
    nCells: data.cellCount,
    mleExists: data.graph.mleExists,
    components: names(data.graph.components),
    strongComponents: names(data.graph.strongComponents),
    provisionalModels: table.models.filter((_, index) => data.graph.provisional[index]),
    uncertainty: intervals.bootstrap ? 'bootstrap' : 'sandwich',
    bootstrap: intervals.bootstrap,
    anchor: options.anchor && anchorIndex !== undefined ? { ...options.anchor } : null,
    rows,
    style: fit.style ?? null,
    fit: {
      objective: fit.objective,
      iterations: fit.iterations,
      maxAbsGradient: fit.maxAbsGradient,
      converged: fit.converged,
    },
    weighting: options.weighting ? weightingSummary(table, options.weighting, fit, data.graph.provisional) : null,
  };
}

/** Σw, effective votes, clusters and the design effect (Kish's for the weights × the clusters' median variance ratio). */
function weightingSummary(table: VoteTable, weighting: VoteWeighting, fit: VariantFit, provisional: Uint8Array): WeightingSummary {
  const { kish, ...totals } = weightTotals(table, weighting);
  const ratios: number[] = [];
  for (let model = 0; model < table.models.length; model++) {
    const independent = fit.seIndependent?.[model] ?? 0;
    if (provisional[model] === 0 && independent > 0) ratios.push((fit.seSandwich[model]! / independent) ** 2);
  }
  ratios.sort((x, y) => x - y);
  const middle = ratios.length / 2;
  const clusterEffect =
    ratios.length === 0 ? 1 : ratios.length % 2 === 1 ? ratios[Math.floor(middle)]! : (ratios[middle - 1]! + ratios[middle]!) / 2;
  return { ...totals, designEffect: kish * clusterEffect };
}

/** Where ratings are pinned: each component's core (or the named anchor) averages to `offset`. */
interface Gauge {
  components: readonly number[][];
  reference: readonly number[][];
  offset: number;
}

/** Displayed uncertainty per model, in rating points. */
interface DisplayIntervals {
  se: Float64Array;
  low: Float64Array;
  high: Float64Array;
  bootstrap: Leaderboard['bootstrap'];
}

/**
 * Sandwich intervals (rating ± 1.96·se); with a bootstrap, its SD and percentiles replace them for
 * every model present in at least two rounds.
 */
function displayIntervals(
  data: RankingData,
  fit: VariantFit,
  bootstrap: LeaderboardOptions['bootstrap'],
  gauge: Gauge,
  ratings: Float64Array,
  sandwich: Float64Array,
): DisplayIntervals {
  const low = ratings.map((rating, model) => rating - Z_95 * sandwich[model]!);
  const high = ratings.map((rating, model) => rating + Z_95 * sandwich[model]!);
  if (!(bootstrap && bootstrap.rounds > 0)) return { se: sandwich, low, high, bootstrap: null };
  const m = data.table.models.length;
  const replicate = runBootstrap(data, fit, bootstrap, gauge.components, gauge.reference);
  const summary = summarizeReplicates(replicate.theta, replicate.rounds, m);
  const se = sandwich.slice();
  for (let model = 0; model < m; model++) {
    if (summary.present[model]! < 2) continue;
    se[model] = SCALE * summary.sd[model]!;
    low[model] = gauge.offset + SCALE * summary.low[model]!;
    high[model] = gauge.offset + SCALE * summary.high[model]!;
  }
  return { se, low, high, bootstrap: { rounds: replicate.rounds, roundsWithoutMle: replicate.roundsWithoutMle } };
}

/** One row per model with its ranks, bounds and tier (ranked models only), ranked ones first by decreasing rating. */
function leaderboardRows(
  table: VoteTable,
  data: RankingData,
  display: DisplayIntervals & { ratings: Float64Array; sandwich: Float64Array; hessian: Float64Array },
): LeaderboardRow[] {
  const { ratings, se, low, high, sandwich, hessian } = display;
  const ranked = Uint8Array.from(data.graph.provisional, (flag) => (flag ? 0 : 1));
  const bounds = rankBoundsFromIntervals(low, high, ranked);
  const ranks = competitionRanks(ratings, ranked);
  const tiers = overlapTiers(ratings, low, high, ranked);
  const rows: LeaderboardRow[] = table.models.map((model, index) => {
    const tally = data.tallies[index]!;
    const isRanked = ranked[index] === 1;
    return {
      model,
      rating: ratings[index]!,
      se: se[index]!,
      ciLow: low[index]!,
      ciHigh: high[index]!,
      rank: isRanked ? ranks[index]! : null,
      rankBest: isRanked ? bounds.best[index]! : null,
      rankWorst: isRanked ? bounds.worst[index]! : null,
      tier: isRanked ? tiers[index]! : null,
      nBattles: tally.votes,
      wins: tally.wins,
      losses: tally.losses,
      ties: tally.ties,
      bothBad: tally.bothBad,
      winRate: (tally.wins + 0.5 * (tally.ties + tally.bothBad)) / tally.votes,
      bothBadRate: tally.bothBad / tally.votes,
      provisional: !isRanked,
      component: data.graph.componentOf[index]!,
      seSandwich: sandwich[index]!,
      seHessian: hessian[index]!,
    };
  });
  rows.sort((x, y) => Number(x.provisional) - Number(y.provisional) || y.rating - x.rating || (x.model < y.model ? -1 : 1));
  return rows;
}

function chooseVariant(data: RankingData, options: LeaderboardOptions): { variant: RankingVariant; note: string | null } {
  const requested = options.variant ?? (options.style ? 'style_fastchat' : undefined);
  if (requested === undefined) {
    return data.graph.mleExists
      ? { variant: 'bt_mle', note: null }
      : { variant: 'bt_ridge', note: 'no finite MLE: bt_ridge fitted, models without enough data flagged provisional' };
  }
  const problem = missingMleReason(data, requested);
  return problem === null
    ? { variant: requested, note: null }
    : { variant: 'bt_ridge', note: `${requested} has no finite MLE (${problem}): bt_ridge fitted instead` };
}

function anchorOf(table: VoteTable, options: LeaderboardOptions): number | undefined {
  if (!options.anchor) return undefined;
  const index = table.models.indexOf(options.anchor.model);
  if (index < 0) {
    throw new RankingError('unknown_anchor_model', `anchor model "${options.anchor.model}" has no votes`);
  }
  return index;
}

function shiftToReference(theta: Float64Array, components: readonly number[][], reference: readonly number[][]): Float64Array {
  const out = theta.slice();
  components.forEach((members, index) => {
    const refs = reference[index]!;
    let sum = 0;
    for (const model of refs) sum += theta[model]!;
    const shift = sum / refs.length;
    for (const model of members) out[model]! -= shift;
  });
  return out;
}

function displayErrors(
  fit: VariantFit,
  components: readonly number[][],
  reference: readonly number[][],
  kind: 'sandwich' | 'hessian',
): Float64Array {
  const variances = regaugedVariances(fit.covariance[kind], fit.covariance.size, components, reference);
  return Float64Array.from(fit.models, (_, model) => SCALE * Math.sqrt(Math.max(0, variances[model]!)));
}

function runBootstrap(
  data: RankingData,
  fit: VariantFit,
  settings: { rounds: number; random: RandomSource },
  gaugeComponents: readonly number[][],
  gaugeReference: readonly number[][],
): { theta: Float64Array; rounds: number; roundsWithoutMle: number } {
  const common = {
    rounds: settings.rounds,
    lambdaTheta: fit.definition.lambdaTheta,
    initialTheta: fit.theta,
    gaugeComponents,
    gaugeReference,
    random: settings.random,
  };
  if (fit.styleRows) {
    const style = fit.style!;
    const initialBeta = Float64Array.from(style.active, (feature) => style.beta[feature]);
    return bootstrapStyleBradleyTerry(fit.styleRows, {
      ...common,
      lambdaBeta: fit.definition.lambdaBeta,
      initialBeta,
    });
  }
  const pairs = fit.definition.dropTies ? aggregatePairs(data.table, { dropTies: true }, data.cells) : data.pairs;
  return bootstrapBradleyTerry(pairs, common);
}

function emptyLeaderboard(table: VoteTable, requested: RankingVariant | null): Leaderboard {
  return {
    variant: null,
    requestedVariant: requested,
    note: 'no votes left after dropping self-play',
    nVotesRaw: table.votesRaw,
    nVotesUsed: 0,
    nSelfPlayDropped: table.selfPlayDropped,
    nModels: 0,
    nCells: 0,
    mleExists: true,
    components: [],
    strongComponents: [],
    provisionalModels: [],
    uncertainty: 'sandwich',
    bootstrap: null,
    anchor: null,
    rows: [],
    style: null,
    fit: null,
    weighting: null,
  };
}
