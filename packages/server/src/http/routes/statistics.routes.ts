import { Hono } from 'hono';
import type { StatisticsService } from '../../services/statistics.service';
import type { AppEnv } from '../app-env';
import { limitedBy, type RouteLimits } from '../middleware/rate-limit';

export function statisticsRoutes(statistics: StatisticsService, limits: RouteLimits): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/', limitedBy(limits)('reads'), async (c) => {
    // The service recomputes at most once a minute; shared caches may keep it as long.
    c.header('cache-control', 'public, max-age=60');
    return c.json(await statistics.current());
  });
  return routes;
}
