import { createHash, randomBytes } from 'node:crypto';
import type { StaffInvited, StaffList, StaffSession } from '@agora/contract';
import type { StaffRow } from '../db/repositories/staff.repository';
import type { Store } from '../db/unit-of-work';
import type { StaffRole } from '../domain/staff/roles';
import { AppError } from './app-error';
import type { Runtime } from './ports/runtime';

/** A one-time sign-in link lasts a day: long enough to reach a colleague, short enough to be worthless if found later. */
export const LINK_LIFETIME_MS = 24 * 3_600_000;

/** Hashing a password: the adapter's functions (adapters/password-hash.ts). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  /** A hash nothing matches, verified against for an unknown e-mail. */
  unusable: string;
}

export interface StaffSettings {
  sessionIdleMs: number;
  sessionMaxMs: number;
  /** Where the one-time links point (`https://arena.example.org`). */
  publicUrl: string;
}

/** A live session: who, their CSRF token, until when. */
export interface SignedInStaff {
  actor: { kind: 'staff'; id: string; name: string; role: StaffRole; sessionId: string };
  csrfToken: string;
  expiresAt: string;
}

/** A session just opened: the cookie's token (shown once, stored hashed) and what the page needs. */
export interface OpenedSession {
  token: string;
  expiresAt: Date;
  session: StaffSession;
}

const sha256 = (token: string) => createHash('sha256').update(token).digest('base64url');
const newToken = () => randomBytes(32).toString('base64url');
const SAME_ANSWER = 'wrong e-mail or password';

/**
 * Staff accounts and sessions (docs/decisions/0010-staff-sign-in.md). An admin (or `agora staff
 * add`) invites a member by e-mail with a role; the one-time link lets them choose a password; a
 * sign-in opens a session whose token lives only in an HttpOnly cookie (the store keeps its hash).
 */
export class StaffService {
  /** scrypt takes 32 MiB and a thread of libuv's pool (shared with file reads and DNS): a few at a time, the rest refused at once. */
  private readonly checking = new PasswordGate(2, 8);

  constructor(
    private readonly store: Store,
    private readonly runtime: Pick<Runtime, 'now' | 'newId'>,
    private readonly passwords: PasswordHasher,
    private readonly settings: StaffSettings,
  ) {}

  /** Adds a member (or gives an existing one this role and enables them) and makes a one-time link. */
  async invite(email: string, role: StaffRole): Promise<StaffInvited> {
    const now = this.runtime.now();
    const at = now.toISOString();
    const id = await this.store.staff.upsert({ id: this.runtime.newId(), email, role, at });
    // One live link per member: an older one, forwarded or found, can no longer set a password.
    await this.store.staff.expireLinksOf(id, at);
    const token = newToken();
    const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS).toISOString();
    await this.store.staff.insertLink({ tokenHash: sha256(token), staffId: id, at, expiresAt });
    // In the fragment: a browser never sends it to a server, so no access log or proxy records it.
    return { id, email, role, link: `${this.settings.publicUrl}/admin/welcome#token=${token}`, expires_at: expiresAt };
  }

  /** Uses a one-time link: sets the member's password and signs them in. */
  async activate(token: string, password: string, addressHash: string | null): Promise<OpenedSession> {
    const at = this.runtime.now().toISOString();
    const staffId = await this.store.staff.useLink(sha256(token), at);
    const member = staffId ? await this.store.staff.findById(staffId) : undefined;
    if (!member || member.disabledAt) throw new AppError('unauthorized', 'this link was used already, has expired or never existed');
    await this.store.staff.setPassword(member.id, await this.checking.run(() => this.passwords.hash(password)), at);
    // A new password: whoever held a session or another link under the old one is out.
    await this.store.staff.expireLinksOf(member.id, at);
    await this.store.staff.revokeSessionsOf(member.id, at);
    return this.open(member, addressHash);
  }

  /** Signs a member in; the same answer, after the same work, whether the e-mail or the password is wrong. */
  async signIn(email: string, password: string, addressHash: string | null): Promise<OpenedSession> {
    const member = await this.store.staff.findByEmail(email);
    const usable = member && !member.disabledAt && member.passwordHash !== null;
    const matches = await this.checking.run(() => this.passwords.verify(password, usable ? member.passwordHash! : this.passwords.unusable));
    if (!usable || !matches) throw new AppError('unauthorized', SAME_ANSWER);
    return this.open(member, addressHash);
  }

  /** The member behind a session token, if the session lives; each use moves its idle end on (within its maximum). */
  async authenticate(token: string): Promise<SignedInStaff | undefined> {
    const tokenHash = sha256(token);
    const now = this.runtime.now();
    const live = await this.store.staff.liveSession(tokenHash, now.toISOString());
    if (!live || !isRole(live.staff.role)) return undefined;
    const idleEnd = Math.min(now.getTime() + this.settings.sessionIdleMs, Date.parse(live.absoluteExpiresAt));
    // Written at most once a minute per session: a page's burst of reads is one write, not one each.
    if (idleEnd - Date.parse(live.expiresAt) > 60_000) await this.store.staff.touchSession(tokenHash, new Date(idleEnd).toISOString());
    return {
      actor: { kind: 'staff', id: live.staff.id, name: live.staff.email, role: live.staff.role, sessionId: tokenHash },
      csrfToken: live.csrfToken,
      expiresAt: new Date(Math.max(idleEnd, Date.parse(live.expiresAt))).toISOString(),
    };
  }

  async signOut(token: string): Promise<void> {
    await this.store.staff.revokeSession(sha256(token), this.runtime.now().toISOString());
  }

  async list(): Promise<StaffList> {
    const rows = await this.store.staff.list(this.runtime.now().toISOString());
    return {
      staff: rows
        .filter((row) => isRole(row.role))
        .map((row) => ({
          id: row.id,
          email: row.email,
          role: row.role as StaffRole,
          created_at: row.createdAt,
          activated_at: row.activatedAt,
          disabled_at: row.disabledAt,
          active_sessions: row.activeSessions,
        })),
    };
  }

  /** Ends every session of a member (a lost laptop); returns how many. */
  async revokeSessions(staffId: string): Promise<number> {
    if (!(await this.store.staff.findById(staffId))) throw new AppError('not_found', 'no such staff member');
    return this.store.staff.revokeSessionsOf(staffId, this.runtime.now().toISOString());
  }

  /** Disables a member: their sessions end and they cannot sign in until invited again. */
  async disable(staffId: string, by: string): Promise<void> {
    if (staffId === by) throw new AppError('invalid_request', 'you cannot disable your own account');
    if (!(await this.store.staff.disable(staffId, this.runtime.now().toISOString())))
      throw new AppError('not_found', 'no such staff member');
  }

  /** Sessions and links past their end (the retention job). */
  async purgeEnded(): Promise<number> {
    return this.store.staff.purgeEnded(this.runtime.now().toISOString());
  }

  private async open(member: StaffRow, addressHash: string | null): Promise<OpenedSession> {
    if (!isRole(member.role)) throw new AppError('unauthorized', SAME_ANSWER);
    const now = this.runtime.now();
    const token = newToken();
    const csrfToken = newToken();
    const absoluteEnd = new Date(now.getTime() + this.settings.sessionMaxMs);
    const idleEnd = new Date(Math.min(now.getTime() + this.settings.sessionIdleMs, absoluteEnd.getTime()));
    await this.store.staff.insertSession({
      tokenHash: sha256(token),
      staffId: member.id,
      csrfToken,
      at: now.toISOString(),
      expiresAt: idleEnd.toISOString(),
      absoluteExpiresAt: absoluteEnd.toISOString(),
      addressHash,
    });
    return {
      token,
      // The cookie lasts as long as the session may: the store decides when it ends.
      expiresAt: absoluteEnd,
      session: { email: member.email, role: member.role, csrf_token: csrfToken, expires_at: idleEnd.toISOString() },
    };
  }
}

/**
 * At most `running` password hashes at once, `waiting` more in line; past that a sign-in is refused
 * at once (429, Retry-After 2 s) instead of queueing: forty sign-ins from two addresses once held a
 * file read 47 s behind them on this machine.
 */
class PasswordGate {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly running: number,
    private readonly waiting: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.running) {
      if (this.queue.length >= this.waiting)
        throw new AppError('rate_limited', 'too many sign-ins at once: try again in 2 s', { retryAfterS: 2 });
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else this.active += 1;
    try {
      return await work();
    } finally {
      // The slot passes to the next in line, or is freed.
      const next = this.queue.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}

function isRole(role: string): role is StaffRole {
  return role === 'admin' || role === 'reviewer';
}
