import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../database';
import type { StaffTable } from '../tables/console-staff';

export interface StaffRow {
  id: string;
  email: string;
  role: string;
  passwordHash: string | null;
  createdAt: string;
  activatedAt: string | null;
  disabledAt: string | null;
}

export interface StaffSessionRow {
  staffId: string;
  csrfToken: string;
  expiresAt: string;
  absoluteExpiresAt: string;
}

const toStaff = (row: Selectable<StaffTable>): StaffRow => ({
  id: row.id,
  email: row.email,
  role: row.role,
  passwordHash: row.password_hash,
  createdAt: row.created_at,
  activatedAt: row.activated_at,
  disabledAt: row.disabled_at,
});

/** Staff accounts, their one-time links and their sessions (services/staff.service.ts). */
export class StaffRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findByEmail(email: string): Promise<StaffRow | undefined> {
    const row = await this.db.selectFrom('staff').selectAll().where('email', '=', email).executeTakeFirst();
    return row && toStaff(row);
  }

  async findById(id: string): Promise<StaffRow | undefined> {
    const row = await this.db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toStaff(row);
  }

  /** Adds a member, or gives an existing one (same e-mail) the role again and enables it; returns its id. */
  async upsert(member: { id: string; email: string; role: string; at: string }): Promise<string> {
    const existing = await this.findByEmail(member.email);
    if (existing) {
      await this.db.updateTable('staff').set({ role: member.role, disabled_at: null }).where('id', '=', existing.id).execute();
      return existing.id;
    }
    await this.db
      .insertInto('staff')
      .values({ id: member.id, email: member.email, role: member.role, password_hash: null, created_at: member.at })
      .execute();
    return member.id;
  }

  async list(now: string): Promise<(StaffRow & { activeSessions: number })[]> {
    const rows = await this.db
      .selectFrom('staff')
      .selectAll('staff')
      .select((eb) =>
        eb
          .selectFrom('staff_sessions')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .whereRef('staff_sessions.staff_id', '=', 'staff.id')
          .where('staff_sessions.revoked_at', 'is', null)
          .where('staff_sessions.expires_at', '>', now)
          .as('active_sessions'),
      )
      .orderBy('email')
      .execute();
    return rows.map((row) => ({ ...toStaff(row), activeSessions: Number(row.active_sessions ?? 0) }));
  }

  async disable(id: string, at: string): Promise<boolean> {
    const result = await this.db.updateTable('staff').set({ disabled_at: at }).where('id', '=', id).executeTakeFirst();
    await this.revokeSessionsOf(id, at);
    return Number(result.numUpdatedRows) > 0;
  }

  async insertLink(link: { tokenHash: string; staffId: string; at: string; expiresAt: string }): Promise<void> {
    await this.db
      .insertInto('staff_links')
      .values({ token_hash: link.tokenHash, staff_id: link.staffId, created_at: link.at, expires_at: link.expiresAt, used_at: null })
      .execute();
  }

  /** Ends a member's unused links (a new link replaces them; a used one ends the others). */
  async expireLinksOf(staffId: string, at: string): Promise<void> {
    await this.db
      .updateTable('staff_links')
      .set({ expires_at: at })
      .where('staff_id', '=', staffId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .execute();
  }

  /** Marks a link used if it is unused and unexpired; returns its member's id (once only: a second use finds nothing). */
  async useLink(tokenHash: string, at: string): Promise<string | undefined> {
    const result = await this.db
      .updateTable('staff_links')
      .set({ used_at: at })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .returning('staff_id')
      .executeTakeFirst();
    return result?.staff_id;
  }

  async setPassword(id: string, passwordHash: string, at: string): Promise<void> {
    await this.db
      .updateTable('staff')
      .set((eb) => ({ password_hash: passwordHash, activated_at: eb.fn.coalesce('activated_at', eb.val(at)) }))
      .where('id', '=', id)
      .execute();
  }

  async insertSession(session: {
    tokenHash: string;
    staffId: string;
    csrfToken: string;
    at: string;
    expiresAt: string;
    absoluteExpiresAt: string;
    addressHash: string | null;
  }): Promise<void> {
    await this.db
      .insertInto('staff_sessions')
      .values({
        token_hash: session.tokenHash,
        staff_id: session.staffId,
        csrf_token: session.csrfToken,
        created_at: session.at,
        expires_at: session.expiresAt,
        absolute_expires_at: session.absoluteExpiresAt,
        revoked_at: null,
        address_hash: session.addressHash,
      })
      .execute();
  }

  /** A live session: not revoked, not expired, its member enabled. */
  async liveSession(tokenHash: string, now: string): Promise<(StaffSessionRow & { staff: StaffRow }) | undefined> {
    const row = await this.db
      .selectFrom('staff_sessions')
      .innerJoin('staff', 'staff.id', 'staff_sessions.staff_id')
      .selectAll('staff')
      .select(['staff_sessions.csrf_token', 'staff_sessions.expires_at', 'staff_sessions.absolute_expires_at'])
      .where('staff_sessions.token_hash', '=', tokenHash)
      .where('staff_sessions.revoked_at', 'is', null)
      .where('staff_sessions.expires_at', '>', now)
      .where('staff.disabled_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      staffId: row.id,
      csrfToken: row.csrf_token,
      expiresAt: row.expires_at,
      absoluteExpiresAt: row.absolute_expires_at,
      staff: toStaff(row),
    };
  }

  async touchSession(tokenHash: string, expiresAt: string): Promise<void> {
    await this.db.updateTable('staff_sessions').set({ expires_at: expiresAt }).where('token_hash', '=', tokenHash).execute();
  }

  async revokeSession(tokenHash: string, at: string): Promise<void> {
    await this.db
      .updateTable('staff_sessions')
      .set({ revoked_at: at })
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async revokeSessionsOf(staffId: string, at: string): Promise<number> {
    const result = await this.db
      .updateTable('staff_sessions')
      .set({ revoked_at: at })
      .where('staff_id', '=', staffId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Sessions and links past their end, and revoked sessions (the retention rule). */
  async purgeEnded(before: string): Promise<number> {
    const sessions = await this.db
      .deleteFrom('staff_sessions')
      .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
      .executeTakeFirst();
    const links = await this.db.deleteFrom('staff_links').where('expires_at', '<', before).executeTakeFirst();
    return Number(sessions.numDeletedRows) + Number(links.numDeletedRows);
  }
}
