/** The model sheets' tallies of the latest refresh (migration 2026_12_09_105500): one row, replaced at each refresh. */
export interface ModelTalliesTable {
  /** Always 1: only the latest tallies are kept (the snapshots keep the history). */
  id: number;
  generated_at: string;
  /** JSON: `{pairs: [{a, b, wins, ties, bothBad, losses}], languages: [{model, language, votes}]}` (domain/ranking/model-tallies.ts). */
  body: string;
}

export interface ModelTalliesTables {
  model_tallies: ModelTalliesTable;
}
