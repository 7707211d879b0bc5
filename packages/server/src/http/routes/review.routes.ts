import {
  auditLogQuerySchema,
  reviewBulkDecisionRequestSchema,
  reviewCountsQuerySchema,
  reviewDecisionRequestSchema,
  reviewQueueQuerySchema,
  typedTextSchema,
} from '@agora/contract';
import { Hono } from 'hono';
import { z } from 'zod';
import type { ReviewService } from '../../services/review.service';
import type { AppEnv } from '../app-env';
import { actorOf, requireRole } from '../middleware/staff-auth';
import { validate } from '../validate';

// Imported conversations have ids of their source's own form: any typed text, bounded.
const duelIdParam = validate('param', z.strictObject({ id: typedTextSchema.pipe(z.string().min(1).max(100)) }));

/**
 * `/api/v1/admin/review…` (a reviewer's, behind the staff authentication): queues and their counts,
 * one conversation, decisions one by one or many at once, the decisions' log. A decision's reviewer
 * is who is signed in (`actorOf`): a body's `reviewer`, which scripts written for the shared token
 * sent, is accepted and ignored (docs/api.md).
 */
export function reviewRoutes(review: ReviewService): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const reviewer = requireRole('reviewer');
  routes.get('/review', reviewer, validate('query', reviewQueueQuerySchema), async (c) => {
    const page = await review.queue(c.req.valid('query'));
    c.set('auditRows', page.items.length);
    return c.json(page);
  });
  routes.get('/review-counts', reviewer, validate('query', reviewCountsQuerySchema), async (c) =>
    c.json(await review.counts(c.req.valid('query'))),
  );
  routes.get('/review/:id', reviewer, duelIdParam, async (c) => {
    c.set('auditRows', 1);
    return c.json(await review.conversation(c.req.valid('param').id));
  });
  routes.put('/review/:id', reviewer, duelIdParam, validate('json', reviewDecisionRequestSchema), async (c) => {
    const decided = await review.decide(c.req.valid('param').id, c.req.valid('json'), actorOf(c).name);
    c.set('auditRows', 1);
    return c.json(decided);
  });
  routes.post('/review-decisions', reviewer, validate('json', reviewBulkDecisionRequestSchema), async (c) => {
    const decided = await review.decideMany(c.req.valid('json'), actorOf(c).name);
    c.set('auditRows', decided.audit.length);
    return c.json(decided);
  });
  routes.get('/review-log', reviewer, validate('query', auditLogQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const log = await review.auditLog(query.limit, query.duel_id);
    c.set('auditRows', log.entries.length);
    return c.json(log);
  });
  return routes;
}
