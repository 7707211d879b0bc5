/**
 * The tables, as Kysely sees them. Storage conventions shared by SQLite and PostgreSQL
 * (see db/README.md): ids are app-generated text, timestamps are ISO-8601 UTC text, booleans are
 * integers 0/1, lists and objects are JSON text.
 */
export interface DuelsTable {
  id: string;
  visitor_hash: string;
  mode: string;
  model_a: string;
  model_b: string;
  chosen_models: string | null;
  locale: string | null;
  status: string;
  turn_count: number;
  created_at: string;
  updated_at: string;
}

export interface TurnsTable {
  duel_id: string;
  turn: number;
  prompt: string;
  status: string;
  error_code: string | null;
  /** The frames that were streamed, as JSON, so that a reconnecting client gets exactly what it missed. */
  frames: string | null;
  started_at: string;
  ended_at: string | null;
}

export interface TurnSidesTable {
  duel_id: string;
  turn: number;
  side: string;
  model_id: string;
  text: string;
  reasoning: string | null;
  output_tokens: number | null;
  output_tokens_source: string | null;
  status: string;
  error_kind: string | null;
  finish_reason: string | null;
  ttft_ms: number | null;
  duration_ms: number | null;
  identity_leak: number;
  style: string | null;
}

export interface UpstreamErrorsTable {
  id: string;
  duel_id: string;
  turn: number;
  side: string;
  model_id: string;
  kind: string;
  status_code: number | null;
  message: string;
  replaced: number;
  created_at: string;
}

export interface ReactionsTable {
  duel_id: string;
  turn: number;
  side: string;
  model_id: string;
  value: string;
  tags: string;
  comment: string | null;
  created_at: string;
  updated_at: string;
}

export interface VotesTable {
  duel_id: string;
  choice: string;
  model_a: string;
  model_b: string;
  tags_a: string;
  tags_b: string;
  comment_a: string | null;
  comment_b: string | null;
  identity_leak: number;
  mode: string;
  locale: string | null;
  created_at: string;
  style_a: string | null;
  style_b: string | null;
  tokens_a: number | null;
  tokens_b: number | null;
  energy_a: string | null;
  energy_b: string | null;
}

export interface LeaderboardSnapshotsTable {
  id: string;
  /** The view key, e.g. `overall|plain`, `language=fr|controlled`, `mode=reasoning|plain`. */
  view: string;
  generated_at: string;
  n_votes: number;
  /** The view as served by `GET /api/v1/leaderboard`, as JSON. */
  body: string;
}

export interface ReportsTable {
  id: string;
  duel_id: string;
  reason: string;
  created_at: string;
}

export interface Database {
  duels: DuelsTable;
  turns: TurnsTable;
  turn_sides: TurnSidesTable;
  upstream_errors: UpstreamErrorsTable;
  reactions: ReactionsTable;
  votes: VotesTable;
  reports: ReportsTable;
  leaderboard_snapshots: LeaderboardSnapshotsTable;
}
