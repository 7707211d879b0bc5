import { randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { generateCookie, getCookie } from 'hono/cookie';
import type { Logger } from 'pino';
import type { AppEnv } from '../app-env';

const requestIdPattern = /^[A-Za-z0-9._-]{1,128}$/;
const visitorPattern = /^[A-Za-z0-9_-]{22}$/;
export const VISITOR_COOKIE = 'agora_visitor';

/**
 * Gives each request an id (kept from `x-request-id` when well-formed), echoed in the response and
 * logged with its errors. Ours are a random prefix per middleware (a server process) and a counter:
 * unique across instances without a call for random bytes per request (a system call, about 15 µs
 * each on the vote path).
 */
export function requestContext(logger: Logger): MiddlewareHandler<AppEnv> {
  const prefix = randomBytes(6).toString('base64url');
  let counter = 0;
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && requestIdPattern.test(incoming) ? incoming : `${prefix}-${(counter++).toString(36)}`;
    c.set('requestId', requestId);
    c.set('logger', logger);
    c.header('x-request-id', requestId);
    await next();
  };
}

/** Visitors are pseudonymous: a random cookie, set when absent, stored only as a hash. */
export function visitorCookie(secure: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Mounted on `/api/v1/duels` and `/api/v1/duels/*`, which both match the bare path: one visitor per request.
    if (c.get('visitorId') !== undefined) return next();
    let visitorId = getCookie(c, VISITOR_COOKIE);
    if (!visitorId || !visitorPattern.test(visitorId)) {
      visitorId = randomBytes(16).toString('base64url');
      const cookie = generateCookie(VISITOR_COOKIE, visitorId, {
        path: '/',
        httpOnly: true,
        sameSite: 'Lax',
        maxAge: 365 * 24 * 3600,
        secure: secure || new URL(c.req.url).protocol === 'https:',
      });
      c.header('set-cookie', cookie, { append: true });
      c.set('newVisitorCookie', cookie);
    }
    c.set('visitorId', visitorId);
    await next();
  };
}
