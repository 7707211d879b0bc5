import { Hono } from 'hono';
import type { ModelProfileService } from '../../services/model-profile.service';
import type { AppEnv } from '../app-env';
import { limitedBy, type RouteLimits } from '../middleware/rate-limit';

/** `GET /api/v1/models/{id}/profile` and `GET /api/v1/models/{a}/vs/{b}` (docs/api.md#model-profiles). */
export function modelProfileRoutes(profiles: ModelProfileService, limits: RouteLimits): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const limited = limitedBy(limits);
  routes.get('/:id/profile', limited('reads'), async (c) => c.json(await profiles.profile(c.req.param('id'))));
  routes.get('/:a/vs/:b', limited('reads'), async (c) => c.json(await profiles.headToHead(c.req.param('a'), c.req.param('b'))));
  return routes;
}
