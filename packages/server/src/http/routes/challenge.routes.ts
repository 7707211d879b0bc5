import { Hono } from 'hono';
import { AppError } from '../../services/app-error';
import type { ProofOfWork } from '../../services/proof-of-work';
import type { AppEnv } from '../app-env';

/** `GET /api/v1/challenge`: a proof-of-work challenge to solve before a duel; 404 when the arena asks for none. */
export function challengeRoutes(proofOfWork: ProofOfWork | undefined): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/', async (c) => {
    if (!proofOfWork) throw new AppError('not_found', 'this arena does not ask for a proof of work');
    // Each challenge is used once: never from a cache.
    c.header('cache-control', 'no-store');
    return c.json({ challenge: await proofOfWork.challenge() });
  });
  return routes;
}
