import { timingSafeEqual } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { AppError } from '../../services/app-error';
import type { OperationsService } from '../../services/operations.service';
import type { ReviewService } from '../../services/review.service';
import type { VoteIntegrityService } from '../../services/vote-integrity';
import { duelIdParamSchema, integrityQuerySchema, voteReviewRequestSchema } from '@agora/contract';
import type { PrometheusMetrics } from '../../observability/prometheus-metrics';
import type { AppEnv } from '../app-env';
import { validate } from '../validate';
import { reviewRoutes } from './review.routes';
import { type ConsoleServices, consoleRoutes } from './console';
import { actorOf, requireRole } from '../middleware/staff-auth';

export const flaggedVotesQuerySchema = z.strictObject({ limit: z.coerce.number().int().min(1).max(1000).default(200) });

export const upstreamErrorsQuerySchema = z.strictObject({
  hours: z.coerce
    .number()
    .positive()
    .max(24 * 366)
    .default(24),
});

/**
 * `/healthz`, public, and `/metrics`, behind a bearer token: per-model counters and timings read
 * before and after one duel would name its models and their sides before the vote.
 */
export function operationsRoutes(
  operations: OperationsService,
  metrics: PrometheusMetrics,
  metricsToken: string | undefined,
): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/healthz', async (c) =>
    (await operations.isHealthy()) ? c.json({ status: 'ok' }) : c.json({ status: 'store_unavailable' }, 503),
  );
  routes.get('/metrics', requireBearer(metricsToken, 'metrics are off (set AGORA_METRICS_TOKEN or AGORA_ADMIN_TOKEN)'), async (c) =>
    c.text(await metrics.registry.metrics(), 200, { 'content-type': metrics.registry.contentType }),
  );
  return routes;
}

/**
 * `/api/v1/admin/*`: a console session or AGORA_ADMIN_TOKEN (middleware/staff-auth.ts), every request
 * audited. The review and integrity routes are a reviewer's; the console's areas declare their roles.
 */
export function adminRoutes(
  services: { operations: OperationsService; review: ReviewService; integrity: VoteIntegrityService; console: ConsoleServices },
  authentication: MiddlewareHandler<AppEnv>,
): Hono<AppEnv> {
  const { operations, review, integrity } = services;
  const routes = new Hono<AppEnv>();
  routes.use('*', authentication);
  const reviewer = requireRole('reviewer');
  routes.get('/upstream-errors', reviewer, validate('query', upstreamErrorsQuerySchema), async (c) =>
    c.json(await operations.upstreamErrors(c.req.valid('query').hours)),
  );
  routes.get('/served-models', reviewer, validate('query', upstreamErrorsQuerySchema), async (c) =>
    c.json(await operations.servedModelMismatches(c.req.valid('query').hours)),
  );
  routes.route('/', reviewRoutes(review));
  routes.get('/votes/flagged', reviewer, validate('query', flaggedVotesQuerySchema), async (c) => {
    const flagged = await integrity.flagged(c.req.valid('query').limit);
    c.set('auditRows', flagged.votes.length);
    return c.json(flagged);
  });
  routes.get('/votes/integrity', reviewer, validate('query', integrityQuerySchema), async (c) =>
    c.json(await integrity.overview(c.req.valid('query'))),
  );
  // The reviewer is who is signed in (a body's `reviewer` is accepted and ignored: docs/api.md).
  routes.put('/votes/:id', reviewer, validate('param', duelIdParamSchema), validate('json', voteReviewRequestSchema), async (c) => {
    const reviewed = await integrity.review(c.req.valid('param').id, c.req.valid('json'), actorOf(c).name);
    c.set('auditRows', 1);
    return c.json(reviewed);
  });
  routes.route('/', consoleRoutes(services.console));
  return routes;
}

/** A route behind `Authorization: Bearer <token>`; without a token configured, the route does not exist. */
function requireBearer(token: string | undefined, offMessage: string): MiddlewareHandler<AppEnv> {
  const expected = token ? Buffer.from(`Bearer ${token}`) : undefined;
  return async (c, next) => {
    if (!expected) throw new AppError('not_found', offMessage);
    const given = Buffer.from(c.req.header('authorization') ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new AppError('unauthorized', 'a valid bearer token is required');
    await next();
  };
}
