import type { LeaderboardRow } from '@agora/contract';

/** A leaderboard row with flat, sortable figures (the energy range's midpoint). */
export type Row = LeaderboardRow & { energy: number | null };

export function joinRows(rows: LeaderboardRow[]): Row[] {
  return rows.map((row) => ({
    ...row,
    energy: row.wh_per_1000_tokens ? (row.wh_per_1000_tokens.min + row.wh_per_1000_tokens.max) / 2 : null,
  }));
}
