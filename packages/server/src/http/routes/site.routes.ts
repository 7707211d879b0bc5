import { sitePageParamSchema, sitePageQuerySchema } from '@agora/contract';
import { Hono } from 'hono';
import type { SiteService } from '../../services/site.service';
import type { AppEnv } from '../app-env';
import { limitedBy, type RouteLimits } from '../middleware/rate-limit';
import { validate } from '../validate';

/** `GET /api/v1/pages`, `GET /api/v1/pages/{name}` and `GET /api/v1/stats`. */
export function siteRoutes(site: SiteService, limits: RouteLimits): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const limited = limitedBy(limits);
  routes.get('/pages', limited('reads'), async (c) => {
    c.header('cache-control', 'public, max-age=300');
    return c.json(await site.pages());
  });
  routes.get(
    '/pages/:name',
    limited('reads'),
    validate('param', sitePageParamSchema),
    validate('query', sitePageQuerySchema),
    async (c) => {
      c.header('cache-control', 'public, max-age=300');
      return c.json(await site.page(c.req.valid('param').name, c.req.valid('query').locale));
    },
  );
  routes.get('/stats', limited('reads'), async (c) => {
    c.header('cache-control', 'public, max-age=30');
    return c.json(await site.voteCounter());
  });
  return routes;
}
