import {
  aggregatePairs,
  countCells,
  orderedCells,
  tallyModels,
  type ModelTally,
  type OrderedCells,
  type PairCounts,
} from './aggregate-cells';
import { fitBradleyTerry } from './bradley-terry';
import { analyzeGraph, type GraphAnalysis } from './components';
import { SCALE, toRating } from './gauge';
import { rankBoundsFromIntervals, Z_95, type RankBounds } from './ranks-and-tiers';
import { RankingError } from './ranking-error';
import { bradleyTerryCovariance, standardErrorsInPoints, type StrengthCovariance } from './standard-errors';
import { fitStyleBradleyTerry, type StyleRows } from './style-bradley-terry';
import { buildStyleDesign, type StyleDesign, type StyleRule } from './style-features';
import { STYLE_FEATURES, type StyleFeature, type VoteTable } from './vote-table';
import { plainWeightedCovariance, styleWeightedCovariance } from './weighted-covariance';
import { checkWeighting, weightedPairs, type VoteWeighting } from './weighting';

/** The named estimators of docs/ranking.md#variants, in the order the command line lists them. */
export const RANKING_VARIANT_NAMES = ['bt_mle', 'bt_ridge', 'bt_mle_drop_ties', 'style_fastchat', 'style_ridge'] as const;
export type RankingVariant = (typeof RANKING_VARIANT_NAMES)[number];

/** What defines a variant: penalties (sum form, natural-log units), ties and style. */
export interface VariantDefinition {
  readonly lambdaTheta: number;
  /** Penalty on the style coefficients; only for style variants. */
  readonly lambdaBeta: number;
  readonly style: boolean;
  /** Ties and both-bad votes removed before fitting. */
  readonly dropTies: boolean;
  /** Unpenalised: only defined when the finite MLE exists. */
  readonly requiresMle: boolean;
  readonly description: string;
}

/** The variants of docs/ranking.md#variants. */
export const RANKING_VARIANTS: Readonly<Record<RankingVariant, VariantDefinition>> = {
  bt_mle: {
    lambdaTheta: 0,
    lambdaBeta: 0,
    style: false,
    dropTies: false,
    requiresMle: true,
    description: 'unpenalised Bradley–Terry MLE, tie = ½ (FastChat compute_bt parity, fully converged)',
  },
  bt_ridge: {
    lambdaTheta: 1e-3,
    lambdaBeta: 0,
    style: false,
    dropTies: false,
    requiresMle: false,
    description: 'Bradley–Terry with ridge λθ = 1e-3, tie = ½ (always finite)',
  },
  bt_mle_drop_ties: {
    lambdaTheta: 0,
    lambdaBeta: 0,
    style: false,
    dropTies: true,
    requiresMle: true,
    description: 'unpenalised MLE on decisive votes only (compar:IA app parity)',
  },
  style_fastchat: {
    lambdaTheta: 0.5 / (Math.LN10 * Math.LN10),
    lambdaBeta: 0.5,
    style: true,
    dropTies: false,
    requiresMle: false,
    description: 'style control, 0.25(‖r‖² + ‖β‖²) on a summed loss (FastChat compute_style_control parity)',
  },
  style_ridge: {
    lambdaTheta: 1e-3,
    lambdaBeta: 1e-3,
    style: true,
    dropTies: false,
    requiresMle: false,
    description: 'style control with ridge 1e-3 on θ and β, tie = ½',
  },
};

/** Aggregates and graph facts computed once per vote table and shared by every variant. */
export interface RankingData {
  readonly table: VoteTable;
  /** Votes per ordered (a, b, outcome) cell. */
  readonly cells: OrderedCells;
  readonly pairs: PairCounts;
  readonly graph: GraphAnalysis;
  readonly tallies: ModelTally[];
  /** Distinct (model_a, model_b, y) cells. */
  readonly cellCount: number;
  /** Vote weights and clusters (docs/ranking.md#weights-and-clusters); absent for plain counts. */
  readonly weighting: VoteWeighting | undefined;
}

/**
 * Aggregates the votes and analyses the comparison graph. With weights, the pairs (and so the
 * graph, the existence check and the fit) hold the votes' weights; counts and cells stay raw.
 */
export function prepareRanking(table: VoteTable, weighting?: VoteWeighting): RankingData {
  if (weighting) checkWeighting(table, weighting);
  const cells = orderedCells(table);
  const pairs = weighting?.weight ? weightedPairs(table, weighting.weight) : aggregatePairs(table, {}, cells);
  return {
    table,
    cells,
    pairs,
    graph: analyzeGraph(pairs),
    tallies: tallyModels(table),
    cellCount: countCells(table, cells),
    weighting,
  };
}

/** The pairs a variant fits: all votes, or the decisive ones for `bt_mle_drop_ties`. */
function pairsOfVariant(data: RankingData, definition: VariantDefinition): PairCounts {
  if (!definition.dropTies) return data.pairs;
  const weight = data.weighting?.weight;
  return weight ? weightedPairs(data.table, weight, true) : aggregatePairs(data.table, { dropTies: true }, data.cells);
}

/** Style coefficients of a style variant, each reported for all 4 features (0 when constant). */
export interface StyleCoefficients {
  readonly rule: StyleRule;
  readonly active: readonly StyleFeature[];
  readonly meanD: readonly number[];
  readonly stdD: readonly number[];
  /** β per feature in natural-log units per SD of the feature. */
  readonly beta: Readonly<Record<StyleFeature, number>>;
  /** β·SCALE: rating points per SD of the feature. */
  readonly betaPointsPerSd: Readonly<Record<StyleFeature, number>>;
  readonly betaSeHessian: Readonly<Record<StyleFeature, number>>;
  readonly betaSeSandwich: Readonly<Record<StyleFeature, number>>;
}

/** One fitted variant in the reference gauge (Σθ = 0 per component), as in the expected files. */
export interface VariantFit {
  readonly variant: RankingVariant;
  readonly definition: VariantDefinition;
  readonly models: readonly string[];
  /** Graph of the votes the variant used (decisive votes only for `bt_mle_drop_ties`). */
  readonly graph: GraphAnalysis;
  readonly theta: Float64Array;
  /** 1000 + SCALE·θ: each component has mean 1000. */
  readonly ratings: Float64Array;
  /** Each component shifted so that its core (non-provisional) models average 1000. */
  readonly ratingsCoreCentered: Float64Array;
  /** Over θ (and β for style variants), θ units². */
  readonly covariance: StrengthCovariance;
  readonly seHessian: Float64Array;
  readonly seSandwich: Float64Array;
  /** Rank bounds from the 95 % sandwich intervals of `ratings`, over all models. */
  readonly rankBoundsSandwich95: RankBounds;
  readonly objective: number;
  readonly iterations: number;
  readonly maxAbsGradient: number;
  readonly converged: boolean;
  readonly style: StyleCoefficients | undefined;
  /** The style design, kept for a style bootstrap. */
  readonly styleRows: StyleRows | undefined;
  /** With clusters or weights: the sandwich SEs (points) each vote its own cluster would give. */
  readonly seIndependent: Float64Array | undefined;
}

/** Options of {@link fitVariant}. */
export interface FitVariantOptions {
  /** Style feature rule (default FastChat's). */
  styleRule?: StyleRule | undefined;
}

/**
 * Fits one variant of docs/ranking.md#variants with Newton, and its Hessian and sandwich covariances.
 *
 * @throws RankingError `mle_does_not_exist` for an unpenalised variant on data whose graph
 *   fails the existence check (or, for `bt_mle_drop_ties`, where a model has no decisive vote);
 *   `style_counts_missing` for a style variant on votes without style counts.
 */
export function fitVariant(data: RankingData, variant: RankingVariant, options: FitVariantOptions = {}): VariantFit {
  const definition = RANKING_VARIANTS[variant];
  const pairs = pairsOfVariant(data, definition);
  const graph = definition.dropTies ? analyzeGraph(pairs) : data.graph;
  const problem = definition.requiresMle ? mleProblem(data, pairs, graph) : null;
  if (problem !== null) {
    throw new RankingError('mle_does_not_exist', `${variant}: no finite MLE (${problem})`);
  }
  const plain = fitBradleyTerry(pairs, {
    lambdaTheta: definition.lambdaTheta,
    components: graph.components,
  });
  const { weighting } = data;
  if (!definition.style) {
    if (weighting) {
      const weighted = plainWeightedCovariance(data.table, pairs, plain.theta, definition.lambdaTheta, graph.components, weighting);
      return finishFit(data, variant, graph, plain, weighted.covariance, undefined, undefined, weighted.seIndependent);
    }
    const covariance = bradleyTerryCovariance(pairs, plain.theta, definition.lambdaTheta, graph.components);
    return finishFit(data, variant, graph, plain, covariance, undefined, undefined);
  }
  const weight = weighting?.weight;
  const design = styleDesignOf(data.table, options.styleRule ?? 'fastchat', weight);
  // The style rows are sorted by pair: each vote takes its table row's weight.
  const rows = weight ? { ...design.rows, weights: Float64Array.from(design.rows.order, (row) => weight[row]!) } : design.rows;
  const fit = fitStyleBradleyTerry(rows, {
    lambdaTheta: definition.lambdaTheta,
    lambdaBeta: definition.lambdaBeta,
    components: graph.components,
    initialTheta: plain.theta,
    withCovariance: true,
  });
  const weighted = weighting ? styleWeightedCovariance(rows, { ...fit, covariance: fit.covariance! }, weighting) : undefined;
  const covariance = weighted?.covariance ?? fit.covariance!;
  const style = styleCoefficients(design, options.styleRule ?? 'fastchat', fit.beta, covariance, data.table.models.length);
  return finishFit(data, variant, graph, fit, covariance, style, rows, weighted?.seIndependent);
}

/**
 * Why an unpenalised variant has no finite MLE on these votes, or null when it has one (always
 * null for penalised variants). `bt_mle_drop_ties` also needs a decisive vote for every model.
 */
export function missingMleReason(data: RankingData, variant: RankingVariant): string | null {
  const definition = RANKING_VARIANTS[variant];
  if (!definition.requiresMle) return null;
  const pairs = pairsOfVariant(data, definition);
  const graph = definition.dropTies ? analyzeGraph(pairs) : data.graph;
  return mleProblem(data, pairs, graph);
}

function mleProblem(data: RankingData, pairs: PairCounts, graph: GraphAnalysis): string | null {
  if (!graph.mleExists) {
    return 'some model or group never loses or never wins against the rest of its component';
  }
  const seen = new Uint8Array(data.table.models.length);
  for (let p = 0; p < pairs.length; p++) {
    seen[pairs.i[p]!] = 1;
    seen[pairs.j[p]!] = 1;
  }
  const missing = data.table.models.filter((_, model) => !seen[model]);
  return missing.length > 0 ? `no decisive vote for ${missing.join(', ')}` : null;
}

function styleDesignOf(table: VoteTable, rule: StyleRule, weight: Float64Array | undefined): StyleDesign {
  if (!table.style || table.votesWithStyle !== table.length) {
    throw new RankingError(
      'style_counts_missing',
      `style control needs style counts on every vote (${table.votesWithStyle} of ${table.length} have them)`,
    );
  }
  return buildStyleDesign(table, rule, weight);
}

function styleCoefficients(
  design: StyleDesign,
  rule: StyleRule,
  beta: Float64Array,
  covariance: StrengthCovariance,
  modelCount: number,
): StyleCoefficients {
  const perFeature = (value: (slot: number) => number): Record<StyleFeature, number> => {
    const out = { len: 0, headers: 0, lists: 0, bold: 0 };
    design.active.forEach((feature, slot) => {
      out[STYLE_FEATURES[feature]!] = value(slot);
    });
    return out;
  };
  const diagonal = (matrix: Float64Array, slot: number): number =>
    Math.sqrt(Math.max(0, matrix[(modelCount + slot) * covariance.size + modelCount + slot]!));
  return {
    rule,
    active: design.active.map((feature) => STYLE_FEATURES[feature]!),
    meanD: design.meanD,
    stdD: design.stdD,
    beta: perFeature((slot) => beta[slot]!),
    betaPointsPerSd: perFeature((slot) => SCALE * beta[slot]!),
    betaSeHessian: perFeature((slot) => diagonal(covariance.hessian, slot)),
    betaSeSandwich: perFeature((slot) => diagonal(covariance.sandwich, slot)),
  };
}

function finishFit(
  data: RankingData,
  variant: RankingVariant,
  graph: GraphAnalysis,
  fit: { theta: Float64Array; objective: number; iterations: number; maxAbsGradient: number; converged: boolean },
  covariance: StrengthCovariance,
  style: StyleCoefficients | undefined,
  styleRows: StyleRows | undefined,
  seIndependent?: Float64Array,
): VariantFit {
  const m = data.table.models.length;
  const ratings = Float64Array.from(fit.theta, toRating);
  const seHessian = standardErrorsInPoints(covariance.hessian, covariance.size, m);
  const seSandwich = standardErrorsInPoints(covariance.sandwich, covariance.size, m);
  const low = ratings.map((rating, model) => rating - Z_95 * seSandwich[model]!);
  const high = ratings.map((rating, model) => rating + Z_95 * seSandwich[model]!);
  return {
    variant,
    definition: RANKING_VARIANTS[variant],
    models: data.table.models,
    graph,
    theta: fit.theta,
    ratings,
    ratingsCoreCentered: Float64Array.from(coreCentered(fit.theta, data.graph), toRating),
    covariance,
    seHessian,
    seSandwich,
    rankBoundsSandwich95: rankBoundsFromIntervals(low, high),
    objective: fit.objective,
    iterations: fit.iterations,
    maxAbsGradient: fit.maxAbsGradient,
    converged: fit.converged,
    style,
    styleRows,
    seIndependent,
  };
}

/**
 * The core of each component: its non-provisional models, or all of them when the component
 * has no unique core.
 */
export function coreMembers(graph: GraphAnalysis): number[][] {
  return graph.components.map((members) => {
    const core = members.filter((model) => !graph.provisional[model]);
    return core.length > 0 ? core : members;
  });
}

/** θ shifted per component so that its core models average 0 (docs/ranking.md#gauge-and-anchor, display gauge). */
export function coreCentered(theta: Float64Array, graph: GraphAnalysis): Float64Array {
  const out = theta.slice();
  const cores = coreMembers(graph);
  graph.components.forEach((members, index) => {
    const core = cores[index]!;
    let sum = 0;
    for (const model of core) sum += out[model]!;
    const shift = sum / core.length;
    for (const model of members) out[model]! -= shift;
  });
  return out;
}
