import { leaderboardHistoryQuerySchema, leaderboardQuerySchema } from '@agora/contract';
import { Hono } from 'hono';
import type { LeaderboardService } from '../../services/leaderboard.service';
import type { AppEnv } from '../app-env';
import { limitedBy, type RouteLimits } from '../middleware/rate-limit';
import { validate } from '../validate';
import { capabilityAsCategory, presentCapabilityView } from '../../services/capability-views';

export function leaderboardRoutes(leaderboards: LeaderboardService, limits: RouteLimits): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const limited = limitedBy(limits);
  routes.get('/', limited('reads'), validate('query', leaderboardQuerySchema), async (c) =>
    c.json(presentCapabilityView(await leaderboards.view(capabilityAsCategory(c.req.valid('query'))))),
  );
  routes.get('/history', limited('reads'), validate('query', leaderboardHistoryQuerySchema), async (c) => {
    const { model, style, limit } = c.req.valid('query');
    return c.json(await leaderboards.history(model, style, limit));
  });
  return routes;
}
