import { Hono } from 'hono';
import type { ProofOfWork } from '../../services/ports/proof-of-work';
import type { AppEnv } from '../app-env';
import { limitedBy, type RouteLimits } from '../middleware/rate-limit';

/**
 * `GET /api/v1/challenge`: a proof-of-work challenge to solve before a duel; 204 and no body when
 * the arena asks for none (not 404: every page load asks, and a browser logs a 404 as an error).
 * Issuing a challenge costs a key derivation: limited per address, whether or not the arena asks for one.
 */
export function challengeRoutes(proofOfWork: ProofOfWork | undefined, limits: RouteLimits): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/', limitedBy(limits)('challenges'), async (c) => {
    if (!proofOfWork) return c.body(null, 204, { 'cache-control': 'no-store' });
    // Each challenge is used once: never from a cache.
    c.header('cache-control', 'no-store');
    return c.json({ challenge: await proofOfWork.challenge() });
  });
  return routes;
}
