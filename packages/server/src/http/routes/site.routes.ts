import { sitePageParamSchema, sitePageQuerySchema } from '@agora/contract';
import { Hono } from 'hono';
import type { SiteService } from '../../services/site.service';
import type { AppEnv } from '../app-env';
import { validate } from '../validate';

/** `GET /api/v1/pages/{name}` and `GET /api/v1/stats`. */
export function siteRoutes(site: SiteService): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/pages/:name', validate('param', sitePageParamSchema), validate('query', sitePageQuerySchema), async (c) => {
    c.header('cache-control', 'public, max-age=300');
    return c.json(await site.page(c.req.valid('param').name, c.req.valid('query').locale));
  });
  routes.get('/stats', async (c) => {
    c.header('cache-control', 'public, max-age=30');
    return c.json(await site.voteCounter());
  });
  return routes;
}
