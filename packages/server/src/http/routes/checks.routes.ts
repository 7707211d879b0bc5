import { checkChoiceRequestSchema, checkIdParamSchema } from '@agora/contract';
import { Hono } from 'hono';
import type { RequestLimiter } from '../../services/ports/request-limiter';
import type { MaxxCheckService } from '../../services/maxx/maxx-check.service';
import type { AppEnv } from '../app-env';
import type { TrustedProxies } from '../client-address';
import { clientAddress, rateLimited } from '../middleware/rate-limit';
import { validate } from '../validate';

/** Check mode: a pair of the optimised set for the visitor, and their choice (docs/api.md#check-mode). */
export function checkRoutes(checks: MaxxCheckService, limits: { limiter: RequestLimiter; trustedProxies: TrustedProxies }): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  // A pair and a choice are limited as a duel and a vote are: one person, one pace.
  const limited = (action: 'prompts' | 'votes') => rateLimited(limits.limiter, action, limits.trustedProxies);
  routes.get('/next', limited('prompts'), async (c) =>
    c.json(await checks.next(c.get('visitorId'), clientAddress(c, limits.trustedProxies))),
  );
  routes.post('/:id', limited('votes'), validate('param', checkIdParamSchema), validate('json', checkChoiceRequestSchema), async (c) =>
    c.json(await checks.choose(c.req.valid('param').id, c.req.valid('json'), c.get('visitorId'))),
  );
  return routes;
}
