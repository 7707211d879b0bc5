import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../database';
import type { AuditLogTable } from '../tables/console-staff';

export type AuditRow = Selectable<AuditLogTable>;

/** The audit log of console and admin-API requests: appended, read, and purged by the retention rule only. */
export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async append(row: AuditRow): Promise<void> {
    await this.db.insertInto('audit_log').values(row).execute();
  }

  /** Newest first, after `before` (the last row of the previous page), optionally one actor's or writes only. */
  async page(query: { limit: number; before?: { at: string; id: string }; actor?: string; writesOnly: boolean }): Promise<AuditRow[]> {
    return this.db
      .selectFrom('audit_log')
      .selectAll()
      .$if(query.before !== undefined, (qb) =>
        qb.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(query.before!.at, query.before!.id))),
      )
      .$if(query.actor !== undefined, (qb) => qb.where('actor', '=', query.actor!))
      .$if(query.writesOnly, (qb) => qb.where('method', 'in', ['POST', 'PUT', 'PATCH', 'DELETE']))
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .execute();
  }

  async purgeBefore(before: string): Promise<number> {
    const result = await this.db.deleteFrom('audit_log').where('at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
