import { Hono } from 'hono';
import type { PublishedDatasetsService } from '../../services/published-datasets.service';
import type { AppEnv } from '../app-env';
import { limitedBy, type RouteLimits } from '../middleware/rate-limit';

export function datasetRoutes(published: PublishedDatasetsService, limits: RouteLimits): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/', limitedBy(limits)('reads'), async (c) => {
    c.header('cache-control', 'public, max-age=30');
    return c.json(await published.latest());
  });
  return routes;
}
