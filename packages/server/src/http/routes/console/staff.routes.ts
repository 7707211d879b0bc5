import { activateRequestSchema, auditQuerySchema, signInRequestSchema, staffInviteRequestSchema, typedTextSchema } from '@agora/contract';
import { type Context, Hono } from 'hono';
import { routePath } from 'hono/route';
import { statusOfCode } from '../../errors';
import { z } from 'zod';
import { AppError } from '../../../services/app-error';
import { type AuditService, auditCsv } from '../../../services/audit.service';
import { rateLimitedError } from '../../../services/ports/request-limiter';
import type { OpenedSession, StaffService } from '../../../services/staff.service';
import { hashClientAddress, hashClientAddressGroup, hashVisitor } from '../../../services/visitor-hashes';
import type { AppEnv } from '../../app-env';
import { clientAddress, limitedBy, type RouteLimits } from '../../middleware/rate-limit';
import { actorOf, clearStaffCookie, requireRole, setStaffCookie, staffCookieOf } from '../../middleware/staff-auth';
import { validate } from '../../validate';

const staffIdParam = validate('param', z.strictObject({ id: typedTextSchema.pipe(z.string().min(1).max(100)) }));

/**
 * Opens a session, and puts the attempt in the audit log whatever its outcome (who tried, from
 * where): a failure under the e-mail tried, a success under the member's.
 */
async function attemptSignIn(
  c: Context<AppEnv>,
  context: { audit: AuditService; limits: RouteLimits; secureCookie: boolean; who: string },
  open: (addressHash: string) => Promise<OpenedSession>,
) {
  const addressHash = hashClientAddress(clientAddress(c, context.limits.trustedProxies));
  const route = routePath(c as Context);
  const record = (actor: string, status: number) =>
    context.audit.record({ actorKind: 'staff', actor, method: 'POST', route, target: null, rows: null, status, addressHash });
  let session: OpenedSession;
  try {
    session = await open(addressHash);
  } catch (error) {
    await record(context.who, error instanceof AppError ? statusOfCode[error.code] : 500);
    throw error;
  }
  await record(session.session.email, 200);
  setStaffCookie(c, session.token, session.expiresAt, context.secureCookie);
  return c.json(session.session);
}

/**
 * The failed-sign-in counters of an e-mail tried from an address (docs/decisions/0010): per account
 * and address group, and per account. Read before the password is checked, counted after a failure.
 */
function failureCounters(email: string, address: string) {
  return [
    ['sign_in_failures', { visitorId: hashVisitor(`staff:${email}:${hashClientAddressGroup(address)}`), address }],
    ['sign_in_account_failures', { visitorId: hashVisitor(`staff:${email}`), address }],
  ] as const;
}

/**
 * `/api/v1/staff/*`, before any session: sign in (limited per address, and failures per account),
 * use a one-time link, read or end one's own session.
 */
export function staffSessionRoutes(staff: StaffService, audit: AuditService, limits: RouteLimits, secureCookie: boolean): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const limited = limitedBy(limits);
  routes.post('/sign-in', limited('sign_ins'), validate('json', signInRequestSchema), async (c) => {
    const { email, password } = c.req.valid('json');
    const failures = failureCounters(email, clientAddress(c, limits.trustedProxies));
    for (const [action, requester] of failures) {
      const left = await limits.limiter.remaining(action, requester);
      if (left.points <= 0) throw rateLimitedError('too many failed sign-ins', left.resetMs);
    }
    try {
      return await attemptSignIn(c, { audit, limits, secureCookie, who: email }, (addressHash) =>
        staff.signIn(email, password, addressHash),
      );
    } catch (error) {
      if (error instanceof AppError && error.code === 'unauthorized')
        for (const [action, requester] of failures) await limits.limiter.consume(action, requester);
      throw error;
    }
  });
  routes.post('/activate', limited('sign_ins'), validate('json', activateRequestSchema), async (c) => {
    const { token, password } = c.req.valid('json');
    const context = { audit, limits, secureCookie, who: '(one-time link)' };
    return attemptSignIn(c, context, (addressHash) => staff.activate(token, password, addressHash));
  });
  routes.get('/session', limited('reads'), async (c) => {
    const token = staffCookieOf(c, secureCookie);
    const signedIn = token ? await staff.authenticate(token) : undefined;
    if (!signedIn) throw new AppError('unauthorized', 'not signed in');
    return c.json({
      email: signedIn.actor.name,
      role: signedIn.actor.role,
      csrf_token: signedIn.csrfToken,
      expires_at: signedIn.expiresAt,
    });
  });
  // Signing out needs no CSRF token: the worst another page can do is end the session.
  routes.delete('/session', limited('reads'), async (c) => {
    const token = staffCookieOf(c, secureCookie);
    if (token) await staff.signOut(token);
    clearStaffCookie(c, secureCookie);
    return c.body(null, 204);
  });
  return routes;
}

/** `/api/v1/admin/staff…` and `/api/v1/admin/audit…` (admins): members, invitations, sessions, the audit log. */
export function staffAdminRoutes(staff: StaffService, audit: AuditService): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use('/staff/*', requireRole('admin'));
  routes.use('/staff', requireRole('admin'));
  routes.use('/audit', requireRole('admin'));
  routes.use('/audit/*', requireRole('admin'));
  routes.get('/staff', async (c) => {
    const list = await staff.list();
    c.set('auditRows', list.staff.length);
    return c.json(list);
  });
  routes.post('/staff', validate('json', staffInviteRequestSchema), async (c) => {
    const { email, role } = c.req.valid('json');
    c.set('auditRows', 1);
    return c.json(await staff.invite(email, role), 201);
  });
  routes.post('/staff/:id/revoke-sessions', staffIdParam, async (c) => {
    const revoked = await staff.revokeSessions(c.req.valid('param').id);
    c.set('auditRows', revoked);
    return c.json({ revoked });
  });
  routes.delete('/staff/:id', staffIdParam, async (c) => {
    await staff.disable(c.req.valid('param').id, actorOf(c).id);
    c.set('auditRows', 1);
    return c.body(null, 204);
  });
  routes.get('/audit', validate('query', auditQuerySchema), async (c) => {
    const page = await audit.page(c.req.valid('query'));
    c.set('auditRows', page.entries.length);
    return c.json(page);
  });
  routes.get('/audit/export', validate('query', auditQuerySchema), async (c) => {
    const page = await audit.page(c.req.valid('query'));
    c.set('auditRows', page.entries.length);
    return c.body(auditCsv(page.entries), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="agora-audit-log.csv"',
    });
  });
  return routes;
}
