import { influenceQuerySchema } from '@agora/contract';
import { Hono } from 'hono';
import type { RankInfluenceService } from '../../../services/rank-influence.service';
import type { AppEnv } from '../../app-env';
import { requireRole } from '../../middleware/staff-auth';
import { validate } from '../../validate';

/** `/api/v1/admin/influence` (reviewers): which visitors or addresses move each model's rating most. */
export function influenceAdminRoutes(influence: RankInfluenceService): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/influence', requireRole('reviewer'), validate('query', influenceQuerySchema), async (c) => {
    const answer = await influence.influence(c.req.valid('query'));
    // The audit log keeps how many models the answer showed (each with hashes of groups, no vote).
    c.set('auditRows', answer.models.length);
    return c.json(answer);
  });
  return routes;
}
