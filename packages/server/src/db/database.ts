import type { ColumnType, Generated } from 'kysely';
import type { ConsoleStaffTables } from './tables/console-staff';
import type { PublicationTables } from './tables/publication';
import type { ConsoleContentTables } from './tables/console-content';
import type { ModelOverrideTables } from './tables/model-overrides';
import type { ModelTalliesTables } from './tables/model-tallies';
import type { SurveyAnswersTables } from './tables/survey-answers';
import type { PromptClusterTables } from './tables/prompt-clusters';
import type { RankingColumnsTables } from './tables/ranking-columns';

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
  /** `arena` (played here) or the imported dataset it comes from (`comparia`). */
  source: Generated<string>;
  /** The source's own id (compar:IA `conversation_pair_id`); unique per source. */
  external_id: string | null;
  cohort: string | null;
  /** Imported columns Agora does not model, as JSON, kept so that an export gives them back. */
  source_meta: string | null;
  /** 1 when the duel's prompts are charged to its visitor's budget for costly models (set when it starts, whoever is drawn). */
  charges_costly_budget: Generated<number>;
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
  /** Until when the process running the turn vouches for it (renewed while it streams); null once it ended, and for turns from before leases. */
  lease_until: string | null;
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
  source_meta: string | null;
  /** The model the provider said it served, and whether that is another than the catalogue's. */
  served_model: string | null;
  served_model_mismatch: Generated<number>;
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
  source_meta: string | null;
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
  /** A side's provider served another model than the catalogue's: left out of the leaderboard. */
  served_model_mismatch: Generated<number>;
  mode: string;
  locale: string | null;
  created_at: string;
  style_a: string | null;
  style_b: string | null;
  tokens_a: number | null;
  tokens_b: number | null;
  energy_a: string | null;
  energy_b: string | null;
  source_meta: string | null;
  /** Hash of the client address the vote came from (integrity rules); null for imported votes. */
  client_hash: string | null;
}

/** A reviewer's decision on a flagged vote. */
export interface VoteReviewsTable {
  duel_id: string;
  decision: string;
  reviewer: string;
  decided_at: string;
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
  /** personal_data | harmful | misleading | other (reports from before categories are other). */
  category: Generated<string>;
  /** The visitor's own words; empty when the category says it all. */
  reason: string;
  /** The answer reported (turn and side), or both null: the whole conversation. */
  turn: number | null;
  side: string | null;
  created_at: string;
}

/** Post-processing of one conversation: languages, topics, personal-data screening. */
export interface ConversationAnnotationsTable {
  duel_id: string;
  /** `pending` | `done` | `failed` (retries exhausted: never exported). */
  status: string;
  attempts: Generated<number>;
  last_error: string | null;
  next_attempt_at: string | null;
  /** Complete turns covered; a conversation that grew since is annotated again. */
  turns_annotated: Generated<number>;
  /** JSON list of language codes, most frequent first. */
  languages: string | null;
  /** JSON `[{prompt, a, b}]`, one entry per complete turn. */
  message_languages: string | null;
  /** JSON lists of personal-data kinds found by the detectors and by the model. */
  pii_rule_kinds: string | null;
  pii_model_kinds: string | null;
  contains_pii: number | null;
  /** The model layer (topics and personal data): `pending` | `done` | `not_configured` | `failed`. */
  model_status: Generated<string>;
  model_id: string | null;
  /** JSON lists. */
  categories: string | null;
  keywords: string | null;
  short_summary: string | null;
  /** JSON list of capability labels (domain/annotation/capabilities.ts); null until labelled. */
  capabilities: string | null;
  /** The near-duplicate cluster of the first prompt (a duel id, docs/ranking.md#duplicate-prompts); null until assigned. */
  prompt_cluster: string | null;
  annotated_at: string | null;
  updated_at: string;
}

export interface ReviewDecisionsTable {
  duel_id: string;
  /** `include` | `exclude`: overrides the screening. */
  decision: string;
  reason: string | null;
  reviewer: string;
  decided_at: string;
}

/** Append-only history of review decisions. */
export interface ReviewAuditLogTable {
  id: string;
  duel_id: string;
  decision: string;
  previous_decision: string | null;
  reason: string | null;
  reviewer: string;
  created_at: string;
}

export interface DeploymentSettingsTable {
  key: string;
  value: string;
}

/** A cached LLM call of the optimised preference set, by the hash of its request. */
export interface LlmCallsTable {
  key: string;
  role: string;
  step: string;
  model_id: string;
  response: string;
  input_tokens: number | null;
  output_tokens: number | null;
  created_at: string;
  /** `stop`, `length`, `content-filter`…; null on calls stored before it was recorded. */
  finish_reason: string | null;
  /** The call's settings as JSON (`maxOutputTokens`, `temperature`, `seed`); null before they were recorded. */
  settings_json: string | null;
}

/** A pair of the optimised set shown to a visitor, and the visitor's choice. */
export interface MaxxChecksTable {
  id: string;
  /** The item, without its run (`maxx_items.item_key` after the run key). */
  item_key: string;
  /** sha256 of the optimised reply shown. */
  optimal_digest: string;
  /** Where the optimised reply was shown: `a` or `b`. */
  optimal_side: string;
  visitor_hash: string;
  address_hash: string | null;
  shown_at: string;
  /** `a`, `b` or `tie`; null until the visitor chose. */
  choice: string | null;
  chosen_at: string | null;
  /** Why the choice does not count (`too_fast`), or null. */
  flag: string | null;
}

/** A verdict on one turn of a duel: the arena visitor's, or compar:IA's per-response arena data. */
export interface TurnVerdictsTable {
  duel_id: string;
  turn: number;
  /** `a`, `b`, `both_good` or `both_bad`. */
  choice: string;
  /** The source row's id (compar:IA's `response_id`). */
  source_id: string | null;
  created_at: string;
  /** When the arena's visitor last changed it (null: never changed, or imported). */
  updated_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Hash of the client address group it came from (arena verdicts), as for votes. */
  client_hash: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The outcome of one item of an optimised-set run. */
export interface MaxxItemsTable {
  item_key: string;
  run_key: string;
  subset: string;
  source_id: string;
  language: string;
  /** `kept` | `dropped`. */
  status: string;
  reason: string | null;
  row_json: string | null;
  stats_json: string;
  created_at: string;
}

/** Who holds a piece of work until when: an item of an optimised-set run, an instance's singleton job. */
export interface LeasesTable {
  lease_key: string;
  owner: string;
  lease_until: string;
}

/** A publication: an export or an optimised set, with the figures of its card. */
export interface DatasetBuildsTable {
  id: string;
  kind: string;
  created_at: string;
  summary_json: string;
  /** Set when a visitor erased a duel its files may hold: its downloads stop until the next export. */
  downloads_withdrawn_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Rate-limit counters shared by instances (rate-limiter-flexible's layout). */
export interface AgoraRateLimitsTable {
  key: string;
  points: number;
  expire: string | number | null;
}

/** A frame of a turn still streaming, shared with the other instances. */
export interface LiveFramesTable {
  duel_id: string;
  turn: number;
  frame_id: number;
  event_json: string;
}

/** One row: bumped by changes that rewrite votes already read (services/leaderboard.service.ts). */
export interface RankingEpochTable {
  id: number;
  epoch: number;
}

/** A vote its visitor erased, by duel id alone: the leaderboards drop it at their next refresh. */
export interface ErasedVotesTable {
  duel_id: string;
  erased_at: string;
}

/** The tables; the console's areas keep theirs in db/tables/ (one file each), joined here. */
export interface Database
  extends
    ConsoleStaffTables,
    PublicationTables,
    ModelOverrideTables,
    ConsoleContentTables,
    ModelTalliesTables,
    SurveyAnswersTables,
    PromptClusterTables,
    RankingColumnsTables {
  duels: DuelsTable;
  turns: TurnsTable;
  turn_sides: TurnSidesTable;
  upstream_errors: UpstreamErrorsTable;
  reactions: ReactionsTable;
  votes: VotesTable;
  reports: ReportsTable;
  leaderboard_snapshots: LeaderboardSnapshotsTable;
  conversation_annotations: ConversationAnnotationsTable;
  review_decisions: ReviewDecisionsTable;
  review_audit_log: ReviewAuditLogTable;
  deployment_settings: DeploymentSettingsTable;
  llm_calls: LlmCallsTable;
  turn_verdicts: TurnVerdictsTable;
  maxx_checks: MaxxChecksTable;
  maxx_items: MaxxItemsTable;
  leases: LeasesTable;
  live_frames: LiveFramesTable;
  dataset_builds: DatasetBuildsTable;
  agora_rate_limits: AgoraRateLimitsTable;
  vote_reviews: VoteReviewsTable;
  ranking_epoch: RankingEpochTable;
  erased_votes: ErasedVotesTable;
}
