import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { type Context, type ErrorHandler, Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { routePath } from 'hono/route';
import type { Logger } from 'pino';
import type { PrometheusMetrics } from '../observability/prometheus-metrics';
import { AppError } from '../services/app-error';
import type { PublishedDatasetsService } from '../services/published-datasets.service';
import type { ProofOfWork } from '../services/ports/proof-of-work';
import type { SiteService } from '../services/site.service';
import type { MyDuelsService } from '../services/my-duels.service';
import type { StatisticsService } from '../services/statistics.service';
import type { RequestLimiter } from '../services/ports/request-limiter';
import type { TrustedProxies } from './client-address';
import type { ArenaCatalogue } from '../services/arena-catalogue';
import type { DuelService } from '../services/duels/duel.service';
import type { LeaderboardService } from '../services/leaderboard.service';
import type { OperationsService } from '../services/operations.service';
import type { ReviewService } from '../services/review.service';
import type { VoteIntegrityService } from '../services/vote-integrity';
import type { AppEnv } from './app-env';
import { errorBody, statusOfCode } from './errors';
import { inlineScriptHashes, requireJsonBodies, securityHeaders } from './middleware/security';
import { requestContext, visitorCookie } from './middleware/request-context';
import { limitedBy, type RouteLimits } from './middleware/rate-limit';
import { buildOpenApiDocument } from './openapi';
import { duelRoutes } from './routes/duels.routes';
import { myDuelRoutes } from './routes/my-duels.routes';
import { leaderboardRoutes } from './routes/leaderboard.routes';
import { populationBoardRoutes, surveyRoutes } from './routes/survey.routes';
import type { SurveyService } from '../services/survey.service';
import type { PopulationBoardService } from '../services/population-board.service';
import { modelRoutes } from './routes/models.routes';
import { modelProfileRoutes } from './routes/model-profile.routes';
import type { ModelProfileService } from '../services/model-profile.service';
import { datasetRoutes } from './routes/datasets.routes';
import { checkRoutes } from './routes/checks.routes';
import type { MaxxCheckService } from '../services/maxx/maxx-check.service';
import { challengeRoutes } from './routes/challenge.routes';
import { siteRoutes } from './routes/site.routes';
import { contentRoutes } from './routes/content.routes';
import { statisticsRoutes } from './routes/statistics.routes';
import { adminRoutes, operationsRoutes } from './routes/operations.routes';
import type { ConsoleServices } from './routes/console';
import { staffSessionRoutes } from './routes/console/staff.routes';
import { staffAuth } from './middleware/staff-auth';

export interface AppServices {
  duels: DuelService;
  /** The visitor's own duels: list, download, erase. */
  myDuels: MyDuelsService;
  leaderboards: LeaderboardService;
  /** The population survey and the board weighted to it (off without a survey file). */
  survey: SurveyService;
  populationBoard: PopulationBoardService;
  operations: OperationsService;
  review: ReviewService;
  integrity: VoteIntegrityService;
  /** The operator's console: staff, audit log and the console's areas. */
  console: ConsoleServices;
  catalogue: ArenaCatalogue;
  datasets: PublishedDatasetsService;
  checks: MaxxCheckService;
  site: SiteService;
  statistics: StatisticsService;
  /** Model sheets and head-to-head pages. */
  modelProfiles: ModelProfileService;
  limiter: RequestLimiter;
  /** Present when the operator asks for a proof of work before each duel. */
  proofOfWork: ProofOfWork | undefined;
  trustedProxies: TrustedProxies;
  metrics: PrometheusMetrics;
  logger: Logger;
  settings: {
    maxPromptChars: number;
    maxTurns: number;
    adminToken: string | undefined;
    metricsToken: string | undefined;
    cookieSecure: boolean;
    cohortHosts: ReadonlyMap<string, string>;
  };
}

/** The HTTP edge: routes, validation, the error body and request ids. No business logic here. */
export function createApp(services: AppServices): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const openApi = JSON.stringify(buildOpenApiDocument(services.settings.maxPromptChars));

  const web = existsSync(join(WEB_BUILD, 'index.html')) ? WEB_BUILD : undefined;
  // Every public route is limited (docs/operations.md#rate-limits), but /healthz, /metrics and the admin API.
  const limits: RouteLimits = { limiter: services.limiter, trustedProxies: services.trustedProxies };
  const limited = limitedBy(limits);
  app.use('*', requestContext(services.logger));
  app.use('*', securityHeaders(web ? inlineScriptHashes(readFileSync(join(web, 'index.html'), 'utf8')) : []));
  app.use('*', requestLog(services));
  // JSON escapes can multiply a prompt's size by up to 6; the limit still stops abuse early.
  app.use('/api/*', limitBody(services.settings.maxPromptChars * 6 + 64 * 1024));
  app.use('/api/*', requireJsonBodies());
  app.use('/api/v1/duels/*', visitorCookie(services.settings.cookieSecure));
  app.use('/api/v1/duels', visitorCookie(services.settings.cookieSecure));
  app.use('/api/v1/checks/*', visitorCookie(services.settings.cookieSecure));
  app.use('/api/v1/survey', visitorCookie(services.settings.cookieSecure));

  app.route('/', operationsRoutes(services.operations, services.metrics, services.settings.metricsToken));
  if (!web)
    app.get('/', limited('reads'), (c) =>
      c.json({ name: 'Agora', api: '/api/v1', openapi: '/api/v1/openapi.json', models: '/api/v1/models', health: '/healthz' }),
    );
  app.get('/api/v1/openapi.json', limited('reads'), (c) => c.body(openApi, 200, { 'content-type': 'application/json' }));
  app.route('/api/v1/models', modelRoutes(services.catalogue, services.settings, limits));
  app.route('/api/v1/models', modelProfileRoutes(services.modelProfiles, limits));
  app.route('/api/v1/datasets', datasetRoutes(services.datasets, limits));
  app.route('/api/v1/checks', checkRoutes(services.checks, limits));
  app.route('/api/v1/statistics', statisticsRoutes(services.statistics, limits));
  app.route('/api/v1', siteRoutes(services.site, limits));
  app.route('/api/v1/content', contentRoutes(services.console.content, limits));
  app.route('/api/v1/challenge', challengeRoutes(services.proofOfWork, limits));
  app.route('/api/v1/leaderboard', populationBoardRoutes(services.populationBoard, limits));
  app.route('/api/v1/leaderboard', leaderboardRoutes(services.leaderboards, limits));
  app.route('/api/v1/survey', surveyRoutes(services.survey, limits));
  // Before the duel routes: `GET /api/v1/duels/export` is the visitor's file, not a duel's id.
  app.route('/api/v1/duels', myDuelRoutes(services.myDuels, limits));
  app.route('/api/v1/duels', duelRoutes(services.duels, services.metrics, services.settings, limits));
  app.route('/api/v1/staff', staffSessionRoutes(services.console.staff, services.console.audit, limits, services.settings.cookieSecure));
  const staffAuthentication = staffAuth({
    adminToken: services.settings.adminToken,
    secureCookie: services.settings.cookieSecure,
    logError: (message, error) => services.logger.error({ err: error }, message),
    sessions: services.console.staff,
    audit: services.console.audit,
    trustedProxies: services.trustedProxies,
  });
  app.route('/api/v1/admin', adminRoutes(services, staffAuthentication));
  if (web) app.get('*', unlessApi(limited('files')), webApp(web));

  app.notFound((c) => c.json(errorBody('not_found', `no route for ${c.req.method} ${c.req.path}`), 404));
  app.onError(answerError);
  return app;
}

/** Counts and logs every answer with its route pattern (not its path: ids would make a series each). */
function requestLog(services: Pick<AppServices, 'metrics' | 'logger'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const route = routePath(c as Context);
    services.metrics.httpRequests.inc({ method: c.req.method, route, status: String(c.res.status) });
    services.logger.info(
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        route,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  };
}

/** The one place an error becomes an HTTP answer: typed errors by their code (errors.ts), the rest as 500. */
const answerError: ErrorHandler<AppEnv> = (error, c) => {
  if (error instanceof AppError) {
    if (error.isReportable) c.get('logger')?.error({ err: error, requestId: c.get('requestId') }, error.message);
    if (error.retryAfterS !== undefined) c.header('retry-after', String(error.retryAfterS));
    return c.json(errorBody(error.code, error.message, error.issues), statusOfCode[error.code]);
  }
  if (error instanceof HTTPException && error.status === 400) {
    return c.json(errorBody('invalid_json', `the request body is not valid JSON (${error.message})`), 400);
  }
  if (c.req.raw.signal.aborted || isClientAbort(error)) {
    // The client went away while its body was being read: its error, and nobody is left to read the answer.
    c.get('logger')?.info({ requestId: c.get('requestId') }, 'request body cut off by the client');
    return c.json(errorBody('invalid_request', 'the request body was cut off'), 400);
  }
  c.get('logger')?.error({ err: error, requestId: c.get('requestId') }, 'unhandled error');
  return c.json(errorBody('internal_error', 'internal error'), 500);
};

/** Node's error for a request stream whose client disconnected before its end. */
function isClientAbort(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'ECONNRESET' && error.message === 'aborted';
}

/** The built web app (`npm run build -w @agora/web`); without it `GET /` answers the JSON index. */
const WEB_BUILD = fileURLToPath(new URL('../../../web/build/', import.meta.url));

/** An unknown API path is the API's 404, not a file of the web app: not counted as one. */
const unlessApi =
  (middleware: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> =>
  (c, next) =>
    c.req.path.startsWith('/api/') ? next() : middleware(c, next);

/** Serves the static SPA: its files, else index.html for any other non-API path (client-side routes). */
function webApp(root: string): MiddlewareHandler<AppEnv> {
  const files = serveStatic<AppEnv>({
    root,
    onFound: (path, c) => c.header('cache-control', path.includes('/_app/immutable/') ? 'public, max-age=31536000, immutable' : 'no-cache'),
  });
  const fallback = serveStatic<AppEnv>({ root, path: 'index.html', onFound: (_path, c) => c.header('cache-control', 'no-cache') });
  return async (c, next) => {
    if (c.req.path.startsWith('/api/')) return next();
    const found = await files(c, async () => {});
    if (found) return found;
    // A missing file (`/robots.txt` when there is none, `/.env`, `/x.php`) is a 404, not the app's page:
    // only routes of the app (no dot in their last segment, no hidden segment) fall back to it.
    if (/(^|\/)\.|\.[^/]*$/.test(c.req.path)) return next();
    return fallback(c, next);
  };
}

/**
 * Refuses oversize bodies. A declared Content-Length is checked at once (the common case, and
 * cheap); a chunked body goes through Hono's streaming limit. The rest of an oversize body is never
 * read, so the connection cannot be reused: the answer says so.
 */
function limitBody(maxSize: number): MiddlewareHandler<AppEnv> {
  const tooLarge = (c: Context<AppEnv>) =>
    c.json(errorBody('payload_too_large', 'the request body is too large'), 413, { connection: 'close' });
  const streaming = bodyLimit({ maxSize, onError: tooLarge });
  return async (c, next) => {
    const declared = c.req.header('content-length');
    // Neither header: no body (RFC 9112 §6.3), the case of every GET. Hono's limit would still build
    // a full Fetch Request to look (about a sixth of the CPU of a flood of reads).
    if (declared === undefined && c.req.header('transfer-encoding') === undefined) return next();
    if (declared === undefined) return streaming(c, next);
    if (Number(declared) > maxSize) return tooLarge(c);
    return next();
  };
}
