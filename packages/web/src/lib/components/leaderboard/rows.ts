import type { LeaderboardRow } from '@agora/contract';

/** A leaderboard row with flat, sortable figures (the energy range's midpoint). */
export type Row = LeaderboardRow & { energy: number | null };

export function joinRows(rows: LeaderboardRow[]): Row[] {
  return rows.map((row) => ({
    ...row,
    energy: row.wh_per_1000_tokens ? (row.wh_per_1000_tokens.min + row.wh_per_1000_tokens.max) / 2 : null,
  }));
}

/** The columns a visitor can sort by: each holds a number, a string or nothing. */
export type SortKey =
  | 'rank'
  | 'tier'
  | 'name'
  | 'rating'
  | 'n_battles'
  | 'win_rate'
  | 'both_bad_rate'
  | 'energy'
  | 'energy_class'
  | 'params_b'
  | 'arch'
  | 'organisation'
  | 'license';

export interface RowSort {
  key: SortKey;
  ascending: boolean;
}

/** The rows whose name, id or organisation holds the search text (all of them for an empty search). */
export function searchRows(rows: readonly Row[], query: string): Row[] {
  const needle = query.trim().toLowerCase();
  return rows.filter((row) => !needle || `${row.name} ${row.model} ${row.organisation ?? ''}`.toLowerCase().includes(needle));
}

/** Rows sorted by one column; ties keep the ranking's order, and empty cells go last either way. */
export function sortRows(rows: readonly Row[], sort: RowSort): Row[] {
  const direction = sort.ascending ? 1 : -1;
  return [...rows].sort((x, y) => {
    const a = x[sort.key];
    const b = y[sort.key];
    if (a === b) return (x.rank ?? 1e9) - (y.rank ?? 1e9);
    if (a === null || a === undefined) return 1;
    if (b === null || b === undefined) return -1;
    return (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b))) * direction;
  });
}

/** A click on a column's header: the same column turns its order over, another starts in its natural order. */
export function nextSort(sort: RowSort, key: SortKey): RowSort {
  if (sort.key === key) return { key, ascending: !sort.ascending };
  return { key, ascending: key === 'rank' || key === 'name' || key === 'energy' || key === 'energy_class' };
}
