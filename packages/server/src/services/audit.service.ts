import type { AuditEntry, AuditPage, AuditQuery } from '@agora/contract';
import type { AuditRow } from '../db/repositories/audit.repository';
import type { Store } from '../db/unit-of-work';
import { AppError } from './app-error';
import type { Runtime } from './ports/runtime';

/** What the audit log keeps of one console or admin-API request (http/middleware/staff-auth.ts). */
export interface AuditRecord {
  actorKind: 'staff' | 'token';
  actor: string;
  method: string;
  route: string;
  target: string | null;
  rows: number | null;
  status: number;
  addressHash: string | null;
}

const toEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  at: row.at,
  actor_kind: row.actor_kind === 'token' ? 'token' : 'staff',
  actor: row.actor,
  method: row.method,
  route: row.route,
  target: row.target,
  rows: row.rows === null ? null : Number(row.rows),
  status: Number(row.status),
  address_hash: row.address_hash,
});

const encodeCursor = (row: { at: string; id: string }) => Buffer.from(JSON.stringify([row.at, row.id])).toString('base64url');

function decodeCursor(cursor: string): { at: string; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof id === 'string') return { at, id };
  } catch {
    // Answered below.
  }
  throw new AppError('invalid_request', 'cursor: not a cursor of this list');
}

/**
 * The audit log: every console and admin-API request once answered, who made it, from where, on
 * which rows. Append-only: nothing here updates or deletes an entry but the retention rule.
 */
export class AuditService {
  constructor(
    private readonly store: Store,
    private readonly runtime: Pick<Runtime, 'now' | 'newId'>,
    private readonly retentionDays: number,
  ) {}

  async record(entry: AuditRecord): Promise<void> {
    // What a request put in its path, query or body is stored as text both stores accept: no NUL
    // (PostgreSQL refuses it), no lone surrogate.
    const text = <T extends string | null>(value: T): T =>
      value === null
        ? value
        : (value
            .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
            .replaceAll('\u0000', '\\0') as T);
    await this.store.audit.append({
      id: this.runtime.newId(),
      at: this.runtime.now().toISOString(),
      actor_kind: entry.actorKind,
      actor: text(entry.actor),
      method: entry.method,
      route: text(entry.route),
      target: text(entry.target),
      rows: entry.rows,
      status: entry.status,
      address_hash: entry.addressHash,
    });
  }

  async page(query: AuditQuery): Promise<AuditPage> {
    const rows = await this.store.audit.page({
      limit: query.limit + 1,
      before: query.cursor ? decodeCursor(query.cursor) : undefined,
      actor: query.actor,
      writesOnly: query.writes === 'true',
    });
    const entries = rows.slice(0, query.limit).map(toEntry);
    const last = rows.length > query.limit ? rows[query.limit - 1]! : undefined;
    return { entries, next_cursor: last ? encodeCursor(last) : null };
  }

  /** Entries older than the retention period (AGORA_AUDIT_RETENTION_DAYS), deleted by the retention job. */
  async purge(): Promise<number> {
    const before = new Date(this.runtime.now().getTime() - this.retentionDays * 86_400_000).toISOString();
    return this.store.audit.purgeBefore(before);
  }
}

/** The audit log as CSV (RFC 4180), for an admin's download. */
export function auditCsv(entries: readonly AuditEntry[]): string {
  const columns = ['at', 'actor_kind', 'actor', 'method', 'route', 'target', 'rows', 'status', 'address_hash'] as const;
  const cell = (value: string | number | null) => {
    const text = value === null ? '' : String(value);
    // A leading = + - @ would be a formula to a spreadsheet (CSV injection): quoted with a ' before it.
    const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
    return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
  };
  return [columns.join(','), ...entries.map((entry) => columns.map((column) => cell(entry[column])).join(','))].join('\r\n') + '\r\n';
}
