import { activateRequestSchema, auditQuerySchema, signInRequestSchema, staffInviteRequestSchema, typedTextSchema } from '@agora/contract';
import { type Context, Hono } from 'hono';
import { routePath } from 'hono/route';
import { statusOfCode } from '../../errors';
import { z } from 'zod';
import { AppError } from '../../../services/app-error';
import { type AuditService, auditCsv } from '../../../services/audit.service';
import { rateLimitedError } from '../../../services/ports/request-limiter';
import type { OpenedSession, StaffService } from '../../../services/staff.service';
import { hashClientAddress, hashVisitor } from '../../../services/visitor-hashes';
import type { AppEnv } from '../../app-env';
import { clientAddress, limitedBy, type RouteLimits } from '../../middleware/rate-limit';
import { actorOf, clearStaffCookie, requireRole, setStaffCookie, staffCookieOf } from '../../middleware/staff-auth';
import { validate } from '../../validate';

const staffIdParam = validate('param', z.strictObject({ id: typedTextSchema.pipe(z.string().min(1).max(100)) }));

/**
 * `/api/v1/staff/*`, before any session: sign in (limited per e-mail and per address), use a
 * one-time link, read or end one's own session.
 */
export function staffSessionRoutes(staff: StaffService, audit: AuditService, limits: RouteLimits, secureCookie: boolean): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const limited = limitedBy(limits);
  /** Opens the session, and puts the attempt in the audit log whatever its outcome (who tried, from where). */
  const attempt = async (c: Context<AppEnv>, who: string, open: (addressHash: string) => Promise<OpenedSession>) => {
    const addressHash = hashClientAddress(clientAddress(c, limits.trustedProxies));
    const record = (actor: string, status: number) =>
      audit.record({
        actorKind: 'staff',
        actor,
        method: 'POST',
        route: routePath(c as Context),
        target: null,
        rows: null,
        status,
        addressHash,
      });
    let session: OpenedSession;
    try {
      session = await open(addressHash);
    } catch (error) {
      await record(who, error instanceof AppError ? statusOfCode[error.code] : 500);
      throw error;
    }
    await record(session.session.email, 200);
    setStaffCookie(c, session.token, session.expiresAt, secureCookie);
    return c.json(session.session);
  };
  routes.post('/sign-in', limited('sign_ins'), validate('json', signInRequestSchema), async (c) => {
    const { email, password } = c.req.valid('json');
    // Counted before the password is checked: a guess refused costs as much as one accepted.
    const address = clientAddress(c, limits.trustedProxies);
    const decision = await limits.limiter.consume('sign_in_accounts', { visitorId: hashVisitor(`staff:${email}`), address });
    if (!decision.allowed) throw rateLimitedError('too many sign-in attempts', decision.retryAfterMs);
    return attempt(c, email, (addressHash) => staff.signIn(email, password, addressHash));
  });
  routes.post('/activate', limited('sign_ins'), validate('json', activateRequestSchema), async (c) => {
    const { token, password } = c.req.valid('json');
    return attempt(c, '(one-time link)', (addressHash) => staff.activate(token, password, addressHash));
  });
  routes.get('/session', limited('reads'), async (c) => {
    const token = staffCookieOf(c);
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
    const token = staffCookieOf(c);
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
