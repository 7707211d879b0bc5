import { setTimeout as sleep } from 'node:timers/promises';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { rateLimitedError, type RateLimitedAction, type RequestLimiter } from '../../services/ports/request-limiter';
import type { AppEnv } from '../app-env';
import type { TrustedProxies } from '../client-address';

/** The client's address: the socket's peer, or behind a trusted proxy the address it forwards. */
export function clientAddress(c: Context<AppEnv>, trusted: TrustedProxies): string {
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    // No socket (a request handed to the app in-process): one unknown address.
  }
  return trusted.clientOf(peer, c.req.header('x-forwarded-for'));
}

/**
 * The routes without a rate limit (docs/operations.md#rate-limits): `/healthz` is what a proxy or an
 * orchestrator polls and must never be refused (its store check is shared by concurrent requests
 * instead); `/metrics` and the admin API sit behind a bearer token, answered 401 or 404 before any
 * work without it. Every other route puts its limit first (test/in-process/route-limits.test.ts).
 */
export const isUnlimitedRoute = (path: string): boolean => path === '/healthz' || path === '/metrics' || path.startsWith('/api/v1/admin/');

/**
 * How long a client refused more often than its limit allows in the window waits for each further
 * refusal. A script's connections each wait for their answer: held a second, they bring it one
 * refusal a second apiece instead of as many as the server can write, and the server's time goes
 * back to everyone else (docs/operations.md#rate-limits). A browser never gets there.
 */
export const FLOOD_REFUSAL_DELAY_MS = 1000;

/**
 * Counts the request against its action's limits (per visitor and per address) before anything
 * else is done with it; past a limit, 429 `rate_limited` with `Retry-After` in seconds. First on
 * its route: every request counts one, whatever it asks for and whether it would succeed, so that
 * the limit's answer tells nothing about a duel (a refused or unknown one counts as any other).
 */
export function rateLimited(limiter: RequestLimiter, action: RateLimitedAction, trusted: TrustedProxies): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Routes outside `/api/v1/duels` and `/api/v1/checks` read no visitor cookie: counted by address only.
    const decision = await limiter.consume(action, { visitorId: c.get('visitorId') ?? '', address: clientAddress(c, trusted) });
    if (!decision.allowed) {
      if (decision.flooding) await sleep(FLOOD_REFUSAL_DELAY_MS);
      throw rateLimitedError(`too many ${action} for now`, decision.retryAfterMs - (decision.flooding ? FLOOD_REFUSAL_DELAY_MS : 0));
    }
    await next();
  };
}

/** The limiter and the proxies whose forwarded address is believed: what a route needs to be limited. */
export interface RouteLimits {
  limiter: RequestLimiter;
  trustedProxies: TrustedProxies;
}

/** `limited('reads')`: the middleware of an action's limits, to put first on a route. */
export function limitedBy(limits: RouteLimits): (action: RateLimitedAction) => MiddlewareHandler<AppEnv> {
  return (action) => rateLimited(limits.limiter, action, limits.trustedProxies);
}
