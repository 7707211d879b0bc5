import { timingSafeEqual } from 'node:crypto';
import { CSRF_HEADER } from '@agora/contract';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { routePath } from 'hono/route';
import { type StaffRole, roleAllows } from '../../domain/staff/roles';
import { AppError } from '../../services/app-error';
import type { AuditRecord } from '../../services/audit.service';
import type { SignedInStaff } from '../../services/staff.service';
import { hashClientAddress } from '../../services/visitor-hashes';
import type { AppEnv, StaffActor } from '../app-env';
import type { TrustedProxies } from '../client-address';
import { clientAddress } from './rate-limit';

/**
 * The console's session cookie: HttpOnly, SameSite=Strict. Over HTTPS (AGORA_COOKIE_SECURE) it is
 * `__Host-agora_staff` on `/`: the prefix makes browsers refuse one set by a sibling subdomain or
 * without Secure. Over plain HTTP (a laptop) it is `agora_staff`, on the API paths only.
 */
const cookieOf = (secure: boolean) => (secure ? { name: '__Host-agora_staff', path: '/' } : { name: 'agora_staff', path: '/api' });

export interface StaffAuthDependencies {
  adminToken: string | undefined;
  secureCookie: boolean;
  logError: (message: string, error: unknown) => void;
  sessions: { authenticate(token: string): Promise<SignedInStaff | undefined> };
  audit: { record(entry: AuditRecord): Promise<void> };
  trustedProxies: TrustedProxies;
}

/** The actor of AGORA_ADMIN_TOKEN: an admin, audited as `admin-token`. */
const TOKEN_ACTOR: StaffActor = { kind: 'token', id: 'admin-token', name: 'admin-token', role: 'admin' };

/**
 * Who calls `/api/v1/admin/*`: the bearer token (scripts), else a console session. A session's state
 * changes must carry its CSRF token in {@link CSRF_HEADER} (SameSite=Strict already keeps other
 * sites' forms out; the token also stops a same-site page). Without either, 401. Every request that
 * gets this far is appended to the audit log once answered, reads included.
 */
export function staffAuth(dependencies: StaffAuthDependencies): MiddlewareHandler<AppEnv> {
  const expected = dependencies.adminToken ? Buffer.from(`Bearer ${dependencies.adminToken}`) : undefined;
  return async (c, next) => {
    const authorization = c.req.header('authorization');
    let actor: StaffActor | undefined;
    if (authorization !== undefined) {
      const given = Buffer.from(authorization);
      if (!expected || given.length !== expected.length || !timingSafeEqual(given, expected))
        throw new AppError('unauthorized', 'a valid bearer token or a console session is required');
      actor = TOKEN_ACTOR;
    } else {
      const token = staffCookieOf(c, dependencies.secureCookie);
      const signedIn = token ? await dependencies.sessions.authenticate(token) : undefined;
      if (!signedIn) throw new AppError('unauthorized', 'sign in to the console first');
      if (!isSafeMethod(c.req.method) && !sameToken(c.req.header(CSRF_HEADER), signedIn.csrfToken))
        throw new AppError('forbidden', `a state change needs the session's ${CSRF_HEADER} header`);
      actor = signedIn.actor;
    }
    c.set('staff', actor);
    const body = isSafeMethod(c.req.method) ? null : await auditedBody(c);
    // Hono answers a handler's error before next() returns: the status recorded is the one sent.
    await next();
    try {
      await dependencies.audit.record(auditRecordOf(c, actor, dependencies.trustedProxies, body));
    } catch (error) {
      // The action is done and answered: a failed audit write is an operator's alarm, not the member's error.
      dependencies.logError('audit log write failed', error);
    }
  };
}

/** A route for `role` (an admin may use a reviewer's): 403 otherwise. */
export function requireRole(role: StaffRole): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const actor = c.get('staff');
    if (!actor) throw new AppError('unauthorized', 'sign in to the console first');
    if (!roleAllows(actor.role, role)) throw new AppError('forbidden', `this needs the ${role} role`);
    await next();
  };
}

/** The signed-in member's actor (a handler behind {@link staffAuth}). */
export function actorOf(c: Context<AppEnv>): StaffActor {
  const actor = c.get('staff');
  if (!actor) throw new AppError('unauthorized', 'sign in to the console first');
  return actor;
}

export function setStaffCookie(c: Context<AppEnv>, token: string, expiresAt: Date, secure: boolean): void {
  const { name, path } = cookieOf(secure);
  setCookie(c, name, token, { path, httpOnly: true, sameSite: 'Strict', secure, expires: expiresAt });
}

export function clearStaffCookie(c: Context<AppEnv>, secure: boolean): void {
  const { name, path } = cookieOf(secure);
  deleteCookie(c, name, { path, httpOnly: true, sameSite: 'Strict', secure });
}

export function staffCookieOf(c: Context<AppEnv>, secure: boolean): string | undefined {
  return getCookie(c, cookieOf(secure).name);
}

/** Body fields whose values never reach the log (a Hub token, a password, a key). */
const SECRET_FIELD = /token|password|secret|key/i;

/** A write's JSON body for the audit log, secrets replaced, at most 1,000 characters; null without one. */
async function auditedBody(c: Context<AppEnv>): Promise<string | null> {
  if (!c.req.header('content-type')?.includes('application/json')) return null;
  try {
    // Hono keeps the text: the route's validator parses the same body from it.
    const text = await c.req.text();
    if (text === '') return null;
    const redacted = JSON.stringify(JSON.parse(text), (field, value: unknown) => (SECRET_FIELD.test(field) ? '(hidden)' : value));
    return redacted.slice(0, 1000);
  } catch {
    return '(not JSON)';
  }
}

function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** What the audit log keeps of a request: who, the route's pattern, which rows (its parameters and query), the outcome. */
function auditRecordOf(c: Context<AppEnv>, actor: StaffActor, trusted: TrustedProxies, body: string | null): AuditRecord {
  const params = c.req.param() as Record<string, string>;
  const query = new URL(c.req.url).searchParams;
  const target = [...Object.entries(params), ...query.entries(), ...(body === null ? [] : [['body', body]])]
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  return {
    actorKind: actor.kind,
    actor: actor.name,
    method: c.req.method,
    route: routePath(c as Context),
    target: target === '' ? null : target.slice(0, 1000),
    rows: c.get('auditRows') ?? null,
    status: c.res.status,
    addressHash: hashClientAddress(clientAddress(c, trusted)),
  };
}
