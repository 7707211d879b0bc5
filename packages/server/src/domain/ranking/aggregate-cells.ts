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
 * Aggregates the votes to per-pair counts. With m models this is at most m(m−1)/2 pairs
 * whatever the number of votes (a dense m×m scratch array below 2,048 models, a map above).
 */
export function aggregatePairs(table: VoteTable, options: AggregateOptions = {}): PairCounts {
  const m = table.models.length;
  const { modelA, modelB, outcome } = table;
  const dense = m <= 2048;
  const scratch = dense ? new Float64Array(m * m * 3) : undefined;
  const sparse = dense ? undefined : new Map<number, Float64Array>();
  for (let row = 0; row < table.length; row++) {
    const code = outcome[row]!;
    const isTie = code >= OUTCOME_CODE.tie;
    if (isTie && options.dropTies) continue;
    const a = modelA[row]!;
    const b = modelB[row]!;
    const low = a < b ? a : b;
    const high = a < b ? b : a;
    // slot 0: low wins, 1: tie, 2: high wins
    const slot = isTie ? 1 : (code === OUTCOME_CODE.model_a) === (a === low) ? 0 : 2;
    if (scratch) {
      scratch[(low * m + high) * 3 + slot]! += 1;
    } else {
      const key = low * m + high;
      let entry = sparse!.get(key);
      if (!entry) sparse!.set(key, (entry = new Float64Array(3)));
      entry[slot]! += 1;
    }
  }
  const keys: number[] = [];
  if (scratch) {
    for (let low = 0; low < m; low++) {
      for (let high = low + 1; high < m; high++) {
        const base = (low * m + high) * 3;
        if (scratch[base]! + scratch[base + 1]! + scratch[base + 2]! > 0) keys.push(low * m + high);
      }
    }
  } else {
    keys.push(...[...sparse!.keys()].sort((x, y) => x - y));
  }
  const counts = allocatePairs(m, keys.length);
  keys.forEach((key, index) => {
    const cell = scratch ? scratch.subarray(key * 3, key * 3 + 3) : sparse!.get(key)!;
    counts.i[index] = Math.floor(key / m);
    counts.j[index] = key % m;
    counts.winsI[index] = cell[0]!;
    counts.ties[index] = cell[1]!;
    counts.winsJ[index] = cell[2]!;
  });
  return counts;
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
export function countCells(table: VoteTable): number {
  const seen = new Set<number>();
  const m = table.models.length;
  for (let row = 0; row < table.length; row++) {
    const code = Math.min(table.outcome[row]!, OUTCOME_CODE.tie);
    seen.add((table.modelA[row]! * m + table.modelB[row]!) * 3 + code);
  }
  return seen.size;
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
