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
 * Counts the request against its action's limits (per visitor and per address) before anything
 * else is done with it; past a limit, 429 `rate_limited` with `Retry-After` in seconds. First on
 * its route: every request counts one, whatever it asks for and whether it would succeed, so that
 * the limit's answer tells nothing about a duel (a refused or unknown one counts as any other).
 */
export function rateLimited(limiter: RequestLimiter, action: RateLimitedAction, trusted: TrustedProxies): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Routes outside `/api/v1/duels` and `/api/v1/checks` read no visitor cookie: counted by address only.
    const decision = await limiter.consume(action, { visitorId: c.get('visitorId') ?? '', address: clientAddress(c, trusted) });
    if (!decision.allowed) throw rateLimitedError(`too many ${action} for now`, decision.retryAfterMs);
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
