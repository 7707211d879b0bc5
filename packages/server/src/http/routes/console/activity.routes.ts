import { activityQuerySchema } from '@agora/contract';
import { Hono } from 'hono';
import type { ActivityService } from '../../../services/activity.service';
import type { AppEnv } from '../../app-env';
import { requireRole } from '../../middleware/staff-auth';
import { validate } from '../../validate';

/** `/api/v1/admin/activity` (reviewers): the arena's activity over the last N days, aggregate figures only. */
export function activityAdminRoutes(activity: ActivityService): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/activity', requireRole('reviewer'), validate('query', activityQuerySchema), async (c) => {
    const answer = await activity.lastDays(c.req.valid('query').days);
    // The rows behind the answer are counts, not records: the audit log keeps how many days it covered.
    c.set('auditRows', answer.series.length);
    return c.json(answer);
  });
  return routes;
}
