/** The live leaderboard's kept vote columns on PostgreSQL (migration 2026_12_10_174800; services/leaderboard-columns-table.ts). */
export interface RankingColumnsPartsTable {
  /** 0, 1, …: the parts end to end are the snapshot's encoded bytes (adapters/ranking-columns-snapshot.ts). */
  part: number;
  bytes: Buffer;
}

/** What the stored snapshot's header says (one row, id 1), replaced in the same transaction as the parts. */
export interface RankingColumnsSnapshotTable {
  id: number;
  version: number;
  /** The store's ranking epoch when the columns were read in full. */
  epoch: number;
  /** When the last read started: a restart reads the changes since then, less the late-commit margin. */
  read_from: string;
  loaded_at: string;
  votes: number;
  bytes: number;
  parts: number;
  written_at: string;
}

export interface RankingColumnsTables {
  ranking_columns_parts: RankingColumnsPartsTable;
  ranking_columns_snapshot: RankingColumnsSnapshotTable;
}
