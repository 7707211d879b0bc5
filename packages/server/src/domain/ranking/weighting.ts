import { allocatePairs, type PairCounts } from './aggregate-cells';
import { RankingError } from './ranking-error';
import type { StyleRows } from './style-features';
import { OUTCOME_CODE, OUTCOME_LABEL, type VoteTable } from './vote-table';

/*
 * Vote weights and clusters (docs/ranking.md#weights-and-clusters). Three features need them:
 * a duplicate-prompt cap scales a cluster's votes down, a board weighted to the population gives
 * each visitor a raking weight, and per-turn verdicts are several votes of one duel. Weights are
 * sampling (analytic) weights: a vote of weight w counts w times in the objective, but the
 * sandwich meat takes w², as a design-based estimator does. Clusters make the sandwich
 * cluster-robust: the scores of a cluster's votes are summed before their outer product (CR0),
 * because votes of one duel or of one visitor are not independent.
 */

/** Per-vote weights and clusters, indexed by vote table row. */
export interface VoteWeighting {
  /** Per row of the vote table, finite and ≥ 0 (absent: every vote weighs 1). */
  weight?: Float64Array | undefined;
  /** Per row, a cluster number ≥ 0 (absent: every vote its own cluster). */
  cluster?: Int32Array | undefined;
}

/** What a weighted or clustered fit reports beside its ratings. */
export interface WeightingSummary {
  /** Σ w over the votes used. */
  sumWeights: number;
  /** Kish's effective number of votes, (Σw)² / Σw². */
  effectiveVotes: number;
  /** Distinct clusters among votes of positive weight (the votes themselves without clusters). */
  clusters: number;
  /**
   * Design effect: Kish's for the weights, n·Σw²/(Σw)², times the clusters' — the median over
   * ranked models of (clustered sandwich SE / sandwich SE with each vote its own cluster)².
   */
  designEffect: number;
}

/** Refuses weights or clusters that do not fit the table: a wrong length, a negative or non-finite weight, a negative cluster. */
export function checkWeighting(table: VoteTable, weighting: VoteWeighting): void {
  const { weight, cluster } = weighting;
  if (weight !== undefined) {
    if (weight.length !== table.length) throw invalid(`${weight.length} weights for ${table.length} votes`);
    for (let row = 0; row < weight.length; row++) {
      const value = weight[row]!;
      if (!(Number.isFinite(value) && value >= 0)) throw invalid(`weight ${value} at vote ${row}: weights are finite and ≥ 0`);
    }
  }
  if (cluster !== undefined) {
    if (cluster.length !== table.length) throw invalid(`${cluster.length} clusters for ${table.length} votes`);
    for (let row = 0; row < cluster.length; row++) {
      if (cluster[row]! < 0) throw invalid(`cluster ${cluster[row]} at vote ${row}: clusters are numbered from 0`);
    }
  }
}

function invalid(message: string): RankingError {
  return new RankingError('invalid_option', `weighting: ${message}`);
}

/**
 * Weighted per-pair sums (i < j): Σw of i's wins, of ties and both-bad votes, of j's wins. Pairs
 * whose votes all weigh 0 are left out, as pairs without votes are.
 */
export function weightedPairs(table: VoteTable, weight: Float64Array, dropTies = false): PairCounts {
  const m = table.models.length;
  const sums = new Map<number, [number, number, number]>();
  for (let row = 0; row < table.length; row++) {
    const w = weight[row]!;
    if (w === 0) continue;
    const code = table.outcome[row]!;
    const tie = code === OUTCOME_CODE.tie || code === OUTCOME_CODE.both_bad;
    if (tie && dropTies) continue;
    const a = table.modelA[row]!;
    const b = table.modelB[row]!;
    const key = Math.min(a, b) * m + Math.max(a, b);
    let sum = sums.get(key);
    if (!sum) sums.set(key, (sum = [0, 0, 0]));
    const aWins = code === OUTCOME_CODE.model_a;
    if (tie) sum[1] += w;
    else if (aWins === a < b) sum[0] += w;
    else sum[2] += w;
  }
  const keys = [...sums.keys()].sort((x, y) => x - y);
  const pairs = allocatePairs(m, keys.length);
  keys.forEach((key, index) => {
    const [winsI, ties, winsJ] = sums.get(key)!;
    pairs.i[index] = Math.floor(key / m);
    pairs.j[index] = key % m;
    pairs.winsI[index] = winsI;
    pairs.ties[index] = ties;
    pairs.winsJ[index] = winsJ;
  });
  return pairs;
}

/**
 * The score contribution of one vote, written as (coordinate, value) entries: the caller's
 * function fills `index` and `value` and returns how many it wrote (0 for a vote left out).
 */
export type ScoreOf = (row: number, index: Int32Array, value: Float64Array) => number;

/**
 * The sandwich meat G = Σ_c g_c g_cᵀ over clusters c, g_c the sum of the scores of c's votes
 * (each vote its own cluster when `cluster` is absent). `size` is the dimension of θ (and β);
 * a vote's score has at most `width` entries.
 */
export function clusteredMeat(rows: number, size: number, width: number, cluster: Int32Array | undefined, scoreOf: ScoreOf): Float64Array {
  const meat = new Float64Array(size * size);
  const index = new Int32Array(width);
  const value = new Float64Array(width);
  const sum = new Float64Array(size);
  const isTouched = new Uint8Array(size);
  const touched: number[] = [];
  const flush = () => {
    for (const p of touched) for (const q of touched) meat[p * size + q]! += sum[p]! * sum[q]!;
    for (const p of touched) {
      sum[p] = 0;
      isTouched[p] = 0;
    }
    touched.length = 0;
  };
  const add = (row: number) => {
    const entries = scoreOf(row, index, value);
    for (let e = 0; e < entries; e++) {
      const coordinate = index[e]!;
      if (isTouched[coordinate] === 0) {
        isTouched[coordinate] = 1;
        touched.push(coordinate);
      }
      sum[coordinate]! += value[e]!;
    }
  };
  if (cluster === undefined) {
    for (let row = 0; row < rows; row++) {
      add(row);
      flush();
    }
    return meat;
  }
  for (const members of clusterMembers(cluster, rows)) {
    for (const row of members) add(row);
    flush();
  }
  return meat;
}

/** Rows grouped by cluster (a counting sort), each group in row order. */
function* clusterMembers(cluster: Int32Array, rows: number): Generator<Int32Array> {
  let count = 0;
  for (let row = 0; row < rows; row++) count = Math.max(count, cluster[row]! + 1);
  const start = new Int32Array(count + 1);
  for (let row = 0; row < rows; row++) start[cluster[row]! + 1]! += 1;
  for (let c = 0; c < count; c++) start[c + 1]! += start[c]!;
  const order = new Int32Array(rows);
  const next = start.slice(0, count);
  for (let row = 0; row < rows; row++) order[next[cluster[row]!]!++] = row;
  for (let c = 0; c < count; c++) if (start[c + 1]! > start[c]!) yield order.subarray(start[c], start[c + 1]);
}

/** The plain Bradley–Terry score of each vote at θ: w(p − y) on a, −w(p − y) on b. */
export function plainScore(table: VoteTable, theta: Float64Array, weight: Float64Array | undefined): ScoreOf {
  return (row, index, value) => {
    const w = weight === undefined ? 1 : weight[row]!;
    if (w === 0) return 0;
    const a = table.modelA[row]!;
    const b = table.modelB[row]!;
    const residual = w * (1 / (1 + Math.exp(-(theta[a]! - theta[b]!))) - OUTCOME_LABEL[table.outcome[row]!]!);
    index[0] = a;
    value[0] = residual;
    index[1] = b;
    value[1] = -residual;
    return 2;
  };
}

/**
 * The style-controlled score of each vote of `rows` (their order, not the table's) at (θ, β):
 * w(p − y) on a, its negative on b, and w(p − y)·x_f on each active feature's coordinate m + slot.
 */
export function styleScore(rows: StyleRows, theta: Float64Array, beta: Float64Array, weight: Float64Array | undefined): ScoreOf {
  const m = rows.modelCount;
  const runOf = new Int32Array(rows.length);
  for (let run = 0; run < rows.runA.length; run++) runOf.fill(run, rows.runStart[run], rows.runStart[run + 1]);
  return (vote, index, value) => {
    const w = weight === undefined ? 1 : weight[rows.order[vote]!]!;
    if (w === 0) return 0;
    const run = runOf[vote]!;
    const a = rows.runA[run]!;
    const b = rows.runB[run]!;
    let z = theta[a]! - theta[b]!;
    rows.active.forEach((feature, slot) => {
      z += rows.x[vote * 4 + feature]! * beta[slot]!;
    });
    const residual = w * (1 / (1 + Math.exp(-z)) - OUTCOME_LABEL[rows.outcome[vote]!]!);
    index[0] = a;
    value[0] = residual;
    index[1] = b;
    value[1] = -residual;
    rows.active.forEach((feature, slot) => {
      index[2 + slot] = m + slot;
      value[2 + slot] = residual * rows.x[vote * 4 + feature]!;
    });
    return 2 + rows.active.length;
  };
}

/** Σw, Kish's effective votes and the distinct clusters of positive weight. */
export function weightTotals(table: VoteTable, weighting: VoteWeighting): Omit<WeightingSummary, 'designEffect'> & { kish: number } {
  let sum = 0;
  let squares = 0;
  let used = 0;
  const seen = new Set<number>();
  for (let row = 0; row < table.length; row++) {
    const w = weighting.weight === undefined ? 1 : weighting.weight[row]!;
    if (w === 0) continue;
    used += 1;
    sum += w;
    squares += w * w;
    if (weighting.cluster !== undefined) seen.add(weighting.cluster[row]!);
  }
  const effectiveVotes = squares > 0 ? (sum * sum) / squares : 0;
  return {
    sumWeights: sum,
    effectiveVotes,
    clusters: weighting.cluster === undefined ? used : seen.size,
    kish: effectiveVotes > 0 ? used / effectiveVotes : 1,
  };
}
