/**
 * Rank influence (docs/ranking.md#rank-influence): for each model, the groups of votes (one
 * visitor's, one address hash's) whose removal moves its rating most. Leaving group g out is one
 * Newton step from the full optimum θ̂ on the objective without g, θ₋g ≈ θ̂ + (H − H_g)⁻¹ s_g
 * (influence-step.ts), not a refit: one m×m inverse for the board, then an r×r solve per group.
 * Ratings are compared as the board shows them: each component's core averaging 1000.
 */
import { aggregatePairs } from './aggregate-cells';
import { evaluateBradleyTerry, fitBradleyTerry } from './bradley-terry';
import { analyzeGraph, type GraphAnalysis } from './components';
import { addGaugeProjector, regaugedVariances, SCALE, toRating } from './gauge';
import { type GroupPairs, leaveGroupOutStep } from './influence-step';
import { planOverlappingNeighbours, type SeparationPlan } from './influence-planner';
import { invertSpd } from './linear-algebra';
import { competitionRanks, Z_95 } from './ranks-and-tiers';
import { bradleyTerryCovariance } from './standard-errors';
import { coreCentered, coreMembers } from './variants';
import { OUTCOME_LABEL, type VoteTable } from './vote-table';

/** The rated votes, each with the group it belongs to. */
export interface GroupedVoteTable {
  table: VoteTable;
  /** Per row, an index in {@link groupNames}, or −1 for a vote of no group (never left out). */
  group: Int32Array;
  groupNames: readonly string[];
}

/** When one group's influence raises an alert: |Δ| above either bound. */
export interface InfluenceAlertRule {
  /** Share of the model's 95 % interval half-width (sandwich SE, as the board shows it). */
  halfWidthShare: number;
  /** Rating points. */
  points: number;
}

/** Half the half-width: one group alone moves the model as far as half of what the board calls noise. */
export const DEFAULT_INFLUENCE_ALERT: InfluenceAlertRule = { halfWidthShare: 0.5, points: 30 };

export interface InfluenceOptions {
  /** Groups kept per model (default 10). */
  top?: number | undefined;
  /** Ridge of the fit; default 0 (bt_mle) when the MLE exists, else bt_ridge's 1e-3. */
  lambdaTheta?: number | undefined;
  alert?: InfluenceAlertRule | undefined;
}

/** What leaving one group out does to one model. */
export interface GroupInfluence {
  group: string;
  model: string;
  /** Rating change in points when the group is left out (after − before). */
  points: number;
  /** Votes the group cast, and on this model. */
  votes: number;
  votesOnModel: number;
  /** Competition rank among the models of the board, before and without the group. */
  rankBefore: number;
  rankAfter: number;
  alert: boolean;
}

export interface ModelInfluence {
  model: string;
  rating: number;
  /** Half-width of its 95 % interval (Z·sandwich SE). */
  halfWidth: number;
  groups: GroupInfluence[];
}

export interface InfluenceReport {
  lambdaTheta: number;
  alertRule: InfluenceAlertRule;
  groups: number;
  /** Groups whose removal leaves some rating undefined (they hold all of a model's votes, or of a link), by name. */
  undefinedGroups: string[];
  models: ModelInfluence[];
  /** Every reported (model, group) over the alert rule, largest |Δ| first. */
  alerts: GroupInfluence[];
  /** Neighbours whose intervals overlap, per component: the votes that would separate them. */
  plans: SeparationPlan[];
}

/** The full fit and what every group's step needs from it. */
export interface BoardFit {
  m: number;
  theta: Float64Array;
  graph: GraphAnalysis;
  lambdaTheta: number;
  inverse: Float64Array;
  regularised: Float64Array;
  ratings: Float64Array;
  halfWidths: Float64Array;
  ranks: Int32Array;
}

function fitBoard(table: VoteTable, lambdaOption: number | undefined): BoardFit {
  const m = table.models.length;
  const pairs = aggregatePairs(table);
  const graph = analyzeGraph(pairs);
  const lambdaTheta = lambdaOption ?? (graph.mleExists ? 0 : 1e-3);
  const { theta } = fitBradleyTerry(pairs, { lambdaTheta, components: graph.components });
  const regularised = new Float64Array(m * m);
  evaluateBradleyTerry(pairs, theta, lambdaTheta, new Float64Array(m), regularised);
  addGaugeProjector(regularised, m, graph.components);
  const inverse = invertSpd(regularised, m);
  const { sandwich } = bradleyTerryCovariance(pairs, theta, lambdaTheta, graph.components);
  const variances = regaugedVariances(sandwich, m, graph.components, coreMembers(graph));
  const halfWidths = Float64Array.from(variances, (variance) => Z_95 * SCALE * Math.sqrt(Math.max(0, variance)));
  const ratings = Float64Array.from(coreCentered(theta, graph), toRating);
  return { m, theta, graph, lambdaTheta, inverse, regularised, ratings, halfWidths, ranks: competitionRanks(ratings) };
}

/** Row numbers of each group (counting sort). */
function rowsByGroup(input: GroupedVoteTable): Int32Array[] {
  const counts = new Int32Array(input.groupNames.length);
  for (const group of input.group) if (group >= 0) counts[group]! += 1;
  const rows = Array.from(counts, (count) => new Int32Array(count));
  const filled = new Int32Array(input.groupNames.length);
  input.group.forEach((group, row) => {
    if (group >= 0) rows[group]![filled[group]!++] = row;
  });
  return rows;
}

/** The group's votes summed per pair at θ̂, and its votes per model. */
function groupPairs(table: VoteTable, rows: Int32Array, theta: Float64Array): { pairs: GroupPairs; votesOn: Map<number, number> } {
  const m = table.models.length;
  const pairs: GroupPairs = { a: [], b: [], curvature: [], score: [] };
  const slot = new Map<number, number>();
  const votesOn = new Map<number, number>();
  for (const row of rows) {
    // Unordered pairs (a < b), so that the Woodbury rank is the group's distinct pairs.
    const flip = table.modelA[row]! > table.modelB[row]!;
    const a = flip ? table.modelB[row]! : table.modelA[row]!;
    const b = flip ? table.modelA[row]! : table.modelB[row]!;
    const label = OUTCOME_LABEL[table.outcome[row]!]!;
    const probability = 1 / (1 + Math.exp(theta[b]! - theta[a]!));
    const key = a * m + b;
    let index = slot.get(key);
    if (index === undefined) {
      index = pairs.a.length;
      slot.set(key, index);
      pairs.a.push(a);
      pairs.b.push(b);
      pairs.curvature.push(0);
      pairs.score.push(0);
    }
    pairs.curvature[index]! += probability * (1 - probability);
    pairs.score[index]! += probability - (flip ? 1 - label : label);
    votesOn.set(a, (votesOn.get(a) ?? 0) + 1);
    votesOn.set(b, (votesOn.get(b) ?? 0) + 1);
  }
  return { pairs, votesOn };
}

/** Δθ as the board shows it (core-centred per component), in rating points. */
function displayedChange(fit: BoardFit, step: Float64Array): Float64Array {
  const points = new Float64Array(fit.m);
  const cores = coreMembers(fit.graph);
  fit.graph.components.forEach((members, index) => {
    const core = cores[index]!;
    let shift = 0;
    for (const model of core) shift += step[model]!;
    shift /= core.length;
    for (const model of members) points[model] = SCALE * (step[model]! - shift);
  });
  return points;
}

/** Keeps the `top` largest |points| per model, sorted. */
class TopPerModel {
  readonly entries: { group: number; points: number }[][];
  constructor(
    m: number,
    private readonly top: number,
  ) {
    this.entries = Array.from({ length: m }, () => []);
  }

  offer(model: number, group: number, points: number): void {
    const list = this.entries[model]!;
    const size = Math.abs(points);
    if (list.length >= this.top && size <= Math.abs(list[list.length - 1]!.points)) return;
    let at = list.length;
    while (at > 0 && Math.abs(list[at - 1]!.points) < size) at -= 1;
    list.splice(at, 0, { group, points });
    if (list.length > this.top) list.pop();
  }
}

export interface GroupChange {
  points: Float64Array;
  votes: number;
  votesOn: Map<number, number>;
}

function modelInfluence(
  fit: BoardFit,
  input: GroupedVoteTable,
  model: number,
  entries: readonly { group: number }[],
  changes: ReadonlyMap<number, GroupChange>,
  alertRule: InfluenceAlertRule,
): ModelInfluence {
  const groups = entries.map(({ group }): GroupInfluence => {
    const change = changes.get(group)!;
    const after = competitionRanks(Float64Array.from(fit.ratings, (rating, other) => rating + change.points[other]!));
    const points = change.points[model]!;
    return {
      group: input.groupNames[group]!,
      model: input.table.models[model]!,
      points,
      votes: change.votes,
      votesOnModel: change.votesOn.get(model) ?? 0,
      rankBefore: fit.ranks[model]!,
      rankAfter: after[model]!,
      alert: Math.abs(points) > Math.min(alertRule.halfWidthShare * fit.halfWidths[model]!, alertRule.points),
    };
  });
  return { model: input.table.models[model]!, rating: fit.ratings[model]!, halfWidth: fit.halfWidths[model]!, groups };
}

/** Every group's displayed rating changes (null when leaving it out leaves a rating undefined), and the full fit. */
export interface LeaveGroupsOut {
  fit: BoardFit;
  changes: (GroupChange | null)[];
  /** Groups with votes whose removal leaves some rating undefined. */
  undefinedGroups: number[];
}

/** Leaves each group out in turn, one Newton step from the full fit each. */
export function leaveGroupsOut(input: GroupedVoteTable, lambdaTheta?: number): LeaveGroupsOut {
  const fit = fitBoard(input.table, lambdaTheta);
  const undefinedGroups: number[] = [];
  const changes = rowsByGroup(input).map((rows, group): GroupChange | null => {
    if (rows.length === 0) return null;
    const { pairs, votesOn } = groupPairs(input.table, rows, fit.theta);
    const step = leaveGroupOutStep(fit.inverse, fit.regularised, fit.m, pairs);
    if (step === null) undefinedGroups.push(group);
    return step === null ? null : { points: displayedChange(fit, step), votes: rows.length, votesOn };
  });
  return { fit, changes, undefinedGroups };
}

function separationPlans(fit: BoardFit, table: VoteTable): SeparationPlan[] {
  const votes = new Float64Array(fit.m);
  for (let row = 0; row < table.length; row++) {
    votes[table.modelA[row]!]! += 1;
    votes[table.modelB[row]!]! += 1;
  }
  return fit.graph.components.flatMap((members) =>
    planOverlappingNeighbours(
      members.map((model) => ({
        model: table.models[model]!,
        rating: fit.ratings[model]!,
        halfWidth: fit.halfWidths[model]!,
        votes: votes[model]!,
      })),
      table.length,
    ),
  );
}

/**
 * For each model, the `top` groups whose votes move its displayed rating most when left out, with
 * the change, the group's votes and the rank change; and the (model, group)s over the alert rule.
 */
export function computeInfluence(input: GroupedVoteTable, options: InfluenceOptions = {}): InfluenceReport {
  const alertRule = options.alert ?? DEFAULT_INFLUENCE_ALERT;
  const { fit, changes, undefinedGroups } = leaveGroupsOut(input, options.lambdaTheta);
  const best = new TopPerModel(fit.m, options.top ?? 10);
  let groups = 0;
  changes.forEach((change, group) => {
    if (change === null) return;
    groups += 1;
    for (let model = 0; model < fit.m; model++) best.offer(model, group, change.points[model]!);
  });
  const byGroup = new Map(changes.flatMap((change, group) => (change === null ? [] : [[group, change] as const])));
  const models = input.table.models.map((_, model) => modelInfluence(fit, input, model, best.entries[model]!, byGroup, alertRule));
  const alerts = models
    .flatMap((entry) => entry.groups.filter((group) => group.alert))
    .sort((x, y) => Math.abs(y.points) - Math.abs(x.points));
  return {
    lambdaTheta: fit.lambdaTheta,
    alertRule,
    groups: groups + undefinedGroups.length,
    undefinedGroups: undefinedGroups.map((group) => input.groupNames[group]!),
    models,
    alerts,
    plans: separationPlans(fit, input.table),
  };
}
