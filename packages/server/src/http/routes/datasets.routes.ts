import { Hono } from 'hono';
import type { PublishedDatasetsService } from '../../services/published-datasets.service';
import type { AppEnv } from '../app-env';

export function datasetRoutes(published: PublishedDatasetsService): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/', async (c) => {
    c.header('cache-control', 'public, max-age=30');
    return c.json(await published.latest());
  });
  return routes;
}
