/** The console's publication: its runs and its Hub settings (migration 2026_12_08_030000). */

/** An export or a push, started from the console or by the schedule. */
export interface PublicationRunsTable {
  id: string;
  /** `export`, `push` or `scheduled` (an export, then its push). */
  kind: string;
  /** `running`, `done`, `failed`; a run whose heartbeat stopped is read as `interrupted`. */
  status: string;
  /** The staff member's e-mail, `admin-token` or `schedule`. */
  actor: string;
  started_at: string;
  /** Renewed while the run works: a run whose instance died stops renewing it. */
  heartbeat_at: string;
  finished_at: string | null;
  done: number;
  total: number;
  build_id: string | null;
  /** What each repository received (contract `hubPushSchema`), JSON. */
  pushes_json: string;
  failure: string | null;
  detail: string | null;
}

/** `public_repository`, `gated_repository`, `hub_token`, `schedule`, `last_scheduled_at`. */
export interface PublicationSettingsTable {
  key: string;
  value: string;
}

export interface PublicationTables {
  publication_runs: PublicationRunsTable;
  publication_settings: PublicationSettingsTable;
}
