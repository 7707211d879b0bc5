import { contentLocaleQuerySchema } from '@agora/contract';
import { Hono } from 'hono';
import type { ContentService } from '../../services/content.service';
import type { AppEnv } from '../app-env';
import { limitedBy, type RouteLimits } from '../middleware/rate-limit';
import { validate } from '../validate';

/** `GET /api/v1/content/arena?locale=xx`: the vote tags and prompt suggestions an admin stored for that language (null: the built-in ones). */
export function contentRoutes(content: ContentService, limits: RouteLimits): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/arena', limitedBy(limits)('reads'), validate('query', contentLocaleQuerySchema), async (c) => {
    // Short: an admin's edit should reach visitors within a minute, and the answer is small.
    c.header('cache-control', 'public, max-age=30');
    return c.json(await content.arena(c.req.valid('query').locale));
  });
  return routes;
}
