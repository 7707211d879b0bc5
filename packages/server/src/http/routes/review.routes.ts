import { auditLogQuerySchema, reviewDecisionRequestSchema, reviewQueueQuerySchema, typedTextSchema } from '@agora/contract';
import { Hono } from 'hono';
import { z } from 'zod';
import type { ReviewService } from '../../services/review.service';
import type { AppEnv } from '../app-env';
import { validate } from '../validate';

// Imported conversations have ids of their source's own form: any typed text, bounded.
const duelIdParam = validate('param', z.strictObject({ id: typedTextSchema.pipe(z.string().min(1).max(100)) }));

/** `/api/v1/admin/review…` (mounted behind the admin token): queues, one conversation, decisions, the audit log. */
export function reviewRoutes(review: ReviewService): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/review', validate('query', reviewQueueQuerySchema), async (c) => c.json(await review.queue(c.req.valid('query'))));
  routes.get('/review/:id', duelIdParam, async (c) => c.json(await review.conversation(c.req.valid('param').id)));
  routes.put('/review/:id', duelIdParam, validate('json', reviewDecisionRequestSchema), async (c) =>
    c.json(await review.decide(c.req.valid('param').id, c.req.valid('json'))),
  );
  routes.get('/review-log', validate('query', auditLogQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(await review.auditLog(query.limit, query.duel_id));
  });
  return routes;
}
