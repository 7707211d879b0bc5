import { timingSafeEqual } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { AppError } from '../../services/app-error';
import type { OperationsService } from '../../services/operations.service';
import type { ReviewService } from '../../services/review.service';
import type { PrometheusMetrics } from '../../observability/prometheus-metrics';
import type { AppEnv } from '../app-env';
import { validate } from '../validate';
import { reviewRoutes } from './review.routes';

export const upstreamErrorsQuerySchema = z.strictObject({
  hours: z.coerce
    .number()
    .positive()
    .max(24 * 366)
    .default(24),
});

/** `/healthz` and `/metrics`. */
export function operationsRoutes(operations: OperationsService, metrics: PrometheusMetrics): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/healthz', async (c) =>
    (await operations.isHealthy()) ? c.json({ status: 'ok' }) : c.json({ status: 'store_unavailable' }, 503),
  );
  routes.get('/metrics', async (c) => c.text(await metrics.registry.metrics(), 200, { 'content-type': metrics.registry.contentType }));
  return routes;
}

/** `/api/v1/admin/*`: off unless AGORA_ADMIN_TOKEN is set, then behind that bearer token. */
export function adminRoutes(operations: OperationsService, review: ReviewService, adminToken: string | undefined): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use('*', requireAdmin(adminToken));
  routes.get('/upstream-errors', validate('query', upstreamErrorsQuerySchema), async (c) =>
    c.json(await operations.upstreamErrors(c.req.valid('query').hours)),
  );
  routes.route('/', reviewRoutes(review));
  return routes;
}

function requireAdmin(adminToken: string | undefined): MiddlewareHandler<AppEnv> {
  const expected = adminToken ? Buffer.from(`Bearer ${adminToken}`) : undefined;
  return async (c, next) => {
    if (!expected) throw new AppError('not_found', 'the admin API is off (set AGORA_ADMIN_TOKEN)');
    const given = Buffer.from(c.req.header('authorization') ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new AppError('unauthorized', 'a valid admin bearer token is required');
    await next();
  };
}
