/** The operator's console: staff accounts, their one-time links and sessions, and the audit log (migration 2026_12_08_000000). */

export interface StaffTable {
  id: string;
  /** Lower-case; unique. */
  email: string;
  /** `admin` or `reviewer` (domain/staff/roles.ts). */
  role: string;
  /** scrypt, with its parameters and salt (adapters/password-hash.ts); null until the one-time link is used. */
  password_hash: string | null;
  created_at: string;
  activated_at: string | null;
  disabled_at: string | null;
}

/** A one-time sign-in link: its token's hash only, so a copy of the store opens nothing. */
export interface StaffLinksTable {
  token_hash: string;
  staff_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A signed-in browser: the session token's hash (the cookie holds the token), its CSRF token and its lifetime. */
export interface StaffSessionsTable {
  token_hash: string;
  staff_id: string;
  csrf_token: string;
  created_at: string;
  /** Idle expiry: moved on by use, never past `absolute_expires_at`. */
  expires_at: string;
  absolute_expires_at: string;
  revoked_at: string | null;
  address_hash: string | null;
}

/** Every console and admin-API request, appended once answered; never updated, deleted only by the retention rule. */
export interface AuditLogTable {
  id: string;
  at: string;
  actor_kind: string;
  actor: string;
  method: string;
  route: string;
  target: string | null;
  rows: number | null;
  status: number;
  address_hash: string | null;
}

export interface ConsoleStaffTables {
  staff: StaffTable;
  staff_links: StaffLinksTable;
  staff_sessions: StaffSessionsTable;
  audit_log: AuditLogTable;
}
