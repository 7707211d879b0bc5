/*
 * The live leaderboard's kept vote columns (vote-columns.ts) as plain data: typed arrays, name
 * lists and counters, what a snapshot file holds so that a restart need not read every vote again
 * (services/leaderboard-columns-snapshot.ts). Split from the columns to keep each file a readable size.
 */

/** The per-vote columns of a state, each `length × perRow` values long (the order a snapshot writes them in). */
export interface StateColumns {
  modelA: Uint16Array;
  modelB: Uint16Array;
  choice: Uint8Array;
  baseFlags: Uint8Array;
  hasStyle: Uint8Array;
  style: Uint16Array | Uint32Array;
  language: Int16Array;
  mode: Int16Array;
  categoryMask: Uint32Array;
  arena: Uint8Array;
  visitor: Int32Array;
  client: Int32Array;
  createdAtMs: Float64Array;
  votedAfterMs: Float32Array;
  shownChars: Float32Array;
  votedAfterShownMs: Float32Array;
  review: Uint8Array;
  promptCluster: Int32Array;
}

export type StateColumnName = keyof StateColumns;

/** Every column of a state, with its values per vote. */
export const STATE_COLUMNS: readonly { name: StateColumnName; perRow: number }[] = [
  { name: 'modelA', perRow: 1 },
  { name: 'modelB', perRow: 1 },
  { name: 'choice', perRow: 1 },
  { name: 'baseFlags', perRow: 1 },
  { name: 'hasStyle', perRow: 1 },
  { name: 'style', perRow: 8 },
  { name: 'language', perRow: 1 },
  { name: 'mode', perRow: 1 },
  { name: 'categoryMask', perRow: 1 },
  { name: 'arena', perRow: 1 },
  { name: 'visitor', perRow: 1 },
  { name: 'client', perRow: 1 },
  { name: 'createdAtMs', perRow: 1 },
  { name: 'votedAfterMs', perRow: 1 },
  { name: 'shownChars', perRow: 1 },
  { name: 'votedAfterShownMs', perRow: 1 },
  { name: 'review', perRow: 1 },
  { name: 'promptCluster', perRow: 1 },
];

/** The dense id tables of a state: each key's two 32-bit halves (hi, lo) in the order of its number. */
export interface StateKeys {
  duels: Uint32Array;
  visitors: Uint32Array;
  clients: Uint32Array;
  clusters: Uint32Array;
}

/** Everything {@link RankingVoteColumns} holds, as plain data (its arrays may share the columns' memory). */
export interface VoteColumnsState {
  /** Rows, unkeyed rows (reaction matches, after every keyed one), erased rows. */
  counts: { size: number; unkeyed: number; erased: number };
  names: { models: string[]; languages: string[]; modes: string[]; categories: string[] };
  keys: StateKeys;
  columns: StateColumns;
  /** Rows with categories past the mask's 32, and those categories. */
  categoryOverflow: [row: number, categories: number[]][];
  /** Per model: sums of the revealed energy's bounds and their count (min, max, n). */
  energySums: Float64Array;
}

/** Throws when a state cannot be columns: a column or key table of the wrong length, a row or name out of range. */
export function checkState(state: VoteColumnsState): void {
  const { size, unkeyed, erased } = state.counts;
  const counts = [size, unkeyed, erased];
  if (!counts.every((count) => Number.isInteger(count) && count >= 0) || unkeyed > size || erased > size)
    throw new Error('a columns state with impossible counts');
  for (const { name, perRow } of STATE_COLUMNS)
    if (state.columns[name].length !== size * perRow) throw new Error(`a columns state whose ${name} column has the wrong length`);
  if (state.keys.duels.length !== 2 * (size - unkeyed)) throw new Error('a columns state whose duel keys do not match its rows');
  if (state.energySums.length % 3 !== 0) throw new Error('a columns state with torn energy sums');
  if (largest(state.columns.modelA) >= state.names.models.length || largest(state.columns.modelB) >= state.names.models.length)
    throw new Error('a columns state naming a model it lacks');
  if (state.categoryOverflow.some(([row]) => !Number.isInteger(row) || row < 0 || row >= size))
    throw new Error('a columns state with categories of a row it lacks');
}

function largest(values: Uint16Array): number {
  let found = -1;
  for (const value of values) if (value > found) found = value;
  return found;
}
