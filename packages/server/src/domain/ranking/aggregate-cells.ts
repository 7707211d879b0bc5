import { OUTCOME_CODE, type VoteTable } from './vote-table';

/**
 * Votes aggregated per unordered pair i < j: how many times i won, how many ties (tie or
 * both-bad, y = ½) and how many times j won. Plain Bradley–Terry, its Hessian, its sandwich
 * meat and the existence check depend on nothing else, so the solvers never touch single votes.
 * Arrays are indexed by pair, pairs listed in (i, j) order.
 */
export interface PairCounts {
  readonly modelCount: number;
  readonly length: number;
  readonly i: Int32Array;
  readonly j: Int32Array;
  readonly winsI: Float64Array;
  readonly ties: Float64Array;
  readonly winsJ: Float64Array;
}

/** Per-model vote counts, ties and both-bad votes apart. */
export interface ModelTally {
  votes: number;
  wins: number;
  losses: number;
  ties: number;
  bothBad: number;
}

/** Options of {@link aggregatePairs}. */
export interface AggregateOptions {
  /** Leave tie and both-bad votes out (the compar:IA app's `bt_mle_drop_ties` parity). */
  dropTies?: boolean;
}

/**
 * Vote counts per ordered cell (model_a, model_b, outcome code), for m ≤ 1,024 a dense
 * m·m·4 array filled in one branch-free pass, otherwise a map. Both `aggregatePairs` and
 * `countCells` are derived from it.
 */
export interface OrderedCells {
  readonly modelCount: number;
  readonly dense: Uint32Array | undefined;
  readonly sparse: Map<number, number> | undefined;
}

/** Counts the votes per ordered (a, b, outcome) cell. */
export function orderedCells(table: VoteTable): OrderedCells {
  const m = table.models.length;
  const { modelA, modelB, outcome } = table;
  if (m <= 1024) {
    const dense = new Uint32Array(m * m * 4);
    for (let row = 0; row < table.length; row++) {
      dense[((modelA[row]! * m + modelB[row]!) << 2) | outcome[row]!]! += 1;
    }
    return { modelCount: m, dense, sparse: undefined };
  }
  const sparse = new Map<number, number>();
  for (let row = 0; row < table.length; row++) {
    const key = (modelA[row]! * m + modelB[row]!) * 4 + outcome[row]!;
    sparse.set(key, (sparse.get(key) ?? 0) + 1);
  }
  return { modelCount: m, dense: undefined, sparse };
}

function cellCount(cells: OrderedCells, a: number, b: number, code: number): number {
  const key = (a * cells.modelCount + b) * 4 + code;
  return cells.dense ? cells.dense[key]! : (cells.sparse!.get(key) ?? 0);
}

/** Ordered pairs (a, b) with at least one vote, a·m + b ascending. */
function orderedPairsWithVotes(cells: OrderedCells): number[] {
  const m = cells.modelCount;
  if (cells.dense) {
    const keys: number[] = [];
    for (let key = 0; key < m * m; key++) {
      const base = key << 2;
      if (cells.dense[base]! + cells.dense[base + 1]! + cells.dense[base + 2]! + cells.dense[base + 3]! > 0) keys.push(key);
    }
    return keys;
  }
  return [...new Set([...cells.sparse!.keys()].map((key) => Math.floor(key / 4)))].sort((x, y) => x - y);
}

/**
 * Aggregates the votes to per-pair counts. With m models this is at most m(m−1)/2 pairs
 * whatever the number of votes.
 */
export function aggregatePairs(table: VoteTable, options: AggregateOptions = {}, cells: OrderedCells = orderedCells(table)): PairCounts {
  const m = cells.modelCount;
  const unordered = new Set<number>();
  for (const key of orderedPairsWithVotes(cells)) {
    const a = Math.floor(key / m);
    const b = key % m;
    unordered.add(Math.min(a, b) * m + Math.max(a, b));
  }
  const keys = [...unordered].sort((x, y) => x - y);
  const counts = allocatePairs(m, keys.length);
  let length = 0;
  for (const key of keys) {
    const i = Math.floor(key / m);
    const j = key % m;
    const winsI = cellCount(cells, i, j, OUTCOME_CODE.model_a) + cellCount(cells, j, i, OUTCOME_CODE.model_b);
    const winsJ = cellCount(cells, i, j, OUTCOME_CODE.model_b) + cellCount(cells, j, i, OUTCOME_CODE.model_a);
    const ties = options.dropTies
      ? 0
      : cellCount(cells, i, j, OUTCOME_CODE.tie) +
        cellCount(cells, i, j, OUTCOME_CODE.both_bad) +
        cellCount(cells, j, i, OUTCOME_CODE.tie) +
        cellCount(cells, j, i, OUTCOME_CODE.both_bad);
    if (winsI + ties + winsJ === 0) continue;
    counts.i[length] = i;
    counts.j[length] = j;
    counts.winsI[length] = winsI;
    counts.ties[length] = ties;
    counts.winsJ[length] = winsJ;
    length += 1;
  }
  return length === keys.length ? counts : truncatePairs(counts, length);
}

function truncatePairs(counts: PairCounts, length: number): PairCounts {
  return {
    modelCount: counts.modelCount,
    length,
    i: counts.i.slice(0, length),
    j: counts.j.slice(0, length),
    winsI: counts.winsI.slice(0, length),
    ties: counts.ties.slice(0, length),
    winsJ: counts.winsJ.slice(0, length),
  };
}

/** Allocates an empty {@link PairCounts} of `length` pairs. */
export function allocatePairs(modelCount: number, length: number): PairCounts {
  return {
    modelCount,
    length,
    i: new Int32Array(length),
    j: new Int32Array(length),
    winsI: new Float64Array(length),
    ties: new Float64Array(length),
    winsJ: new Float64Array(length),
  };
}

/**
 * Number of distinct (model_a, model_b, y) cells, the unit arena-rank and FastChat aggregate to
 * (A/B order kept, tie and both-bad merged since both have y = ½).
 */
export function countCells(table: VoteTable, cells: OrderedCells = orderedCells(table)): number {
  let count = 0;
  for (const key of orderedPairsWithVotes(cells)) {
    const a = Math.floor(key / cells.modelCount);
    const b = key % cells.modelCount;
    if (cellCount(cells, a, b, OUTCOME_CODE.model_a) > 0) count += 1;
    if (cellCount(cells, a, b, OUTCOME_CODE.model_b) > 0) count += 1;
    if (cellCount(cells, a, b, OUTCOME_CODE.tie) + cellCount(cells, a, b, OUTCOME_CODE.both_bad) > 0) count += 1;
  }
  return count;
}

/** Votes, wins, losses, ties and both-bad votes of every model (index order). */
export function tallyModels(table: VoteTable): ModelTally[] {
  const tallies = table.models.map(() => ({ votes: 0, wins: 0, losses: 0, ties: 0, bothBad: 0 }));
  for (let row = 0; row < table.length; row++) {
    const a = tallies[table.modelA[row]!]!;
    const b = tallies[table.modelB[row]!]!;
    a.votes += 1;
    b.votes += 1;
    switch (table.outcome[row]) {
      case OUTCOME_CODE.model_a:
        a.wins += 1;
        b.losses += 1;
        break;
      case OUTCOME_CODE.model_b:
        b.wins += 1;
        a.losses += 1;
        break;
      case OUTCOME_CODE.tie:
        a.ties += 1;
        b.ties += 1;
        break;
      default:
        a.bothBad += 1;
        b.bothBad += 1;
    }
  }
  return tallies;
}
