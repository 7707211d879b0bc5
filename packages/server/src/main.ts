import { hostname } from 'node:os';
import { TrustedProxies } from './http/client-address';
import { limitConnectionsPerClient } from './http/connection-limits';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { pino, type Logger } from 'pino';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type CatalogueModel, apiKeyEnv, isDrawable, loadCatalogue } from './config/catalogue';
import { downloadModelFile, resolveUrl } from './adapters/model-download';
import { localModelFileProblem } from './providers/llama-cpp/local-model-files';
import { LocalModelRuntime } from './providers/llama-cpp/local-model-runtime';
import { inlineRulesLayer } from './adapters/rules-layer/rules-layer';
import { ThreadedRulesLayer } from './adapters/rules-layer/threaded-rules-layer';
import { readLocalModelFacts } from './providers/llama-cpp/local-model-facts';
import { type Config, ConfigError } from './config/config';
import { openDatabase } from './db/dialect';
import { migrateToLatest } from './db/migrate';
import type { VoteTable } from './domain/ranking';
import { type Store, createStore } from './db/unit-of-work';
import type { AppEnv } from './http/app-env';
import { createApp } from './http/app';
import { PrometheusMetrics } from './observability/prometheus-metrics';
import { createModelClient, createModelRegistry, localModelSettings } from './providers/create-model-client';
import type { ModelClient } from './providers/spec';
import { ArenaCatalogue } from './services/arena-catalogue';
import { DuelService } from './services/duels/duel.service';
import { OperationsService } from './services/operations.service';
import { ReviewService } from './services/review.service';
import { PublishedDatasetsService } from './services/published-datasets.service';
import { MaxxCheckService } from './services/maxx/maxx-check.service';
import { LeaderboardService } from './services/leaderboard.service';
import { PairingPolicy } from './services/pairing-policy';
import { type RankingComputer, WorkerRankingComputer } from './adapters/ranking-worker/ranking-computer';
import { createRequestLimiter } from './adapters/request-limiter';
import { createProofOfWork } from './adapters/proof-of-work';
import { BUNDLED_PAGES, sitePageFiles } from './adapters/site-page-files';
import { SiteService } from './services/site.service';
import { VoteIntegrityService } from './services/vote-integrity';
import { SingletonLease } from './services/singleton-lease';
import { SweepJob } from './jobs/sweep.job';
import { LeaderboardRefreshJob } from './jobs/leaderboard-refresh.job';
import { PostprocessJob } from './jobs/postprocess.job';
import { lazyLanguageDetector } from './adapters/lazy-language-detector';
import { type ConversationAnnotator, createConversationAnnotator } from './adapters/conversation-annotator';
import { PostprocessService, type PostprocessReport } from './services/postprocess.service';
import { storeVoteTable } from './services/rank-votes';
export { createMaxxService, sameOrganisationWarnings } from './services/maxx/create-maxx-service';
import { createRevealImpactEstimator } from './services/reveal-impact';
import { type Runtime, systemRuntime } from './services/runtime';

/** A wired arena: the HTTP app and the services behind it. */
export interface Arena {
  app: Hono<AppEnv>;
  duels: DuelService;
  leaderboards: LeaderboardService;
  leaderboardRefresh: LeaderboardRefreshJob;
  /** Background post-processing; undefined when AGORA_POSTPROCESS is off. */
  postprocessJob: PostprocessJob | undefined;
  store: Store;
  catalogue: ArenaCatalogue;
  metrics: PrometheusMetrics;
  logger: Logger;
  /** llama.cpp in this process, for the catalogue's local models. */
  localModels: LocalModelRuntime;
  /** Waits for running turns to be stored, then closes the store. */
  close(): Promise<void>;
}

export interface ArenaOverrides {
  /** Catalogue models already loaded (tests); otherwise read from `config.modelsPath`. */
  catalogue?: CatalogueModel[];
  runtime?: Runtime;
  logger?: Logger;
  /** Injected into every provider client (recorded vendor streams in tests). */
  fetch?: typeof fetch;
  /** The client of each catalogue model instead of the HTTP ones (in-process tests). */
  modelClient?: (model: CatalogueModel) => ModelClient;
  /** Where leaderboard fits run (a worker thread by default). */
  rankingComputer?: RankingComputer;
}

/**
 * The composition root: config → store (migrated) → provider registry → services → HTTP app.
 * Plain constructors, no container; the only place that knows every concrete class.
 */
export async function createArena(
  config: Config,
  environment: Record<string, string | undefined>,
  overrides: ArenaOverrides = {},
): Promise<Arena> {
  const logger = overrides.logger ?? pino({ level: config.logLevel, base: undefined });
  const models = overrides.catalogue ?? serveCatalogue(config, environment, logger);
  for (const model of models) if (model.local) await checkLocalModel(model, environment, logger);
  const catalogue = new ArenaCatalogue(models, config.demo);
  const localModels = new LocalModelRuntime();
  const registry = createModelRegistry(
    models,
    overrides.modelClient ?? ((model) => createModelClient(model, overrides.fetch, localModels)),
  );
  // Local models load in the background from the start (the first duel need not wait); a file
  // llama.cpp cannot load (truncated, too large once mapped) makes its model unavailable, and says so.
  for (const model of models) {
    if (!model.local || !isDrawable(model)) continue;
    localModels.load(localModelSettings(model)).catch((error: unknown) => {
      model.unavailableReason = `llama.cpp cannot load ${model.local!.path} (${error instanceof Error ? error.message : String(error)})`;
      logger.warn({ model: model.entry.id }, `model unavailable: ${model.unavailableReason}`);
    });
  }
  for (const model of models) {
    if (model.unavailableReason) logger.warn({ model: model.entry.id }, `model unavailable: ${model.unavailableReason}`);
  }
  const setupHint = catalogue.setupHint();
  if (setupHint) logger.warn(setupHint);
  const db = openDatabase(config.database, { backgroundCheckpoints: true });
  await migrateToLatest(db);
  const store = createStore(db);
  const runtime = overrides.runtime ?? systemRuntime;
  // Several instances: each labels its series with its host name and process id.
  const metrics = new PrometheusMetrics(config.severalInstances ? `${hostname()}:${process.pid}` : undefined);
  const pairing = new PairingPolicy(config.pairing, catalogue);
  const sharedCounters = config.database.kind === 'postgres' ? { postgresUrl: config.database.url } : undefined;
  const limiter = createRequestLimiter(config.rateLimits, sharedCounters);
  const proofOfWork = config.proofOfWork ? createProofOfWork(config.proofOfWork, sharedCounters) : undefined;
  const duels = new DuelService({
    store,
    catalogue,
    registry,
    metrics,
    runtime,
    settings: {
      maxTurns: config.maxTurns,
      upstreamRetries: config.upstreamRetries,
      replayTtlMs: config.replayTtlMs,
      // Every attempt of the slowest model, one replacement, and a minute of margin.
      severalInstances: config.severalInstances,
      turnDeadlineMs: (config.upstreamRetries + 2) * Math.max(0, ...models.map((model) => model.options.totalTimeoutMs)) + 60_000,
    },
    estimateImpact: createRevealImpactEstimator(catalogue, config.impact),
    onVoteRecorded: () => {
      leaderboardRefresh.voteRecorded();
      postprocessJob?.voteRecorded();
    },
    pairing,
    limiter,
    proofOfWork,
    logError: (message, error) => logger.error({ err: error }, message),
    logUpstream: (entry) =>
      entry.status === 'complete'
        ? logger.info({ upstream: entry }, 'upstream call')
        : logger.warn({ upstream: entry }, 'upstream call failed'),
  });
  const operations = new OperationsService(store, runtime.now);
  const rankingComputer = overrides.rankingComputer ?? new WorkerRankingComputer();
  const leaderboards = new LeaderboardService({
    store,
    catalogue,
    computer: rankingComputer,
    runtime,
    settings: {
      minVotes: config.leaderboard.minVotes,
      reactions: config.leaderboard.reactions,
      impact: config.impact,
      integrity: config.integrity,
    },
  });
  // Several instances: one of them fits the leaderboard and post-processes at a time (a lease in the
  // store); the others read the snapshots it stores.
  const singleton = config.severalInstances ? new SingletonLease(store, runtime) : undefined;
  const leaderboardRefresh = new LeaderboardRefreshJob(
    singleton
      ? {
          refresh: () =>
            singleton.whenHeld(
              'leaderboard',
              3 * config.leaderboard.everyMs,
              () => leaderboards.refresh(),
              () => leaderboards.reloadLatest(),
            ),
        }
      : leaderboards,
    { ...config.leaderboard, everyTickEvenWithoutVotes: config.severalInstances },
    (message, error) => logger.error({ err: error }, message),
    () => pairing.update(leaderboards.latestOverall()),
  );
  const postprocessService = config.postprocess.enabled
    ? createPostprocessService(config, store, runtime, createAnnotator(config, models, overrides.fetch))
    : undefined;
  const postprocessJob = postprocessService
    ? new PostprocessJob(
        singletonPostprocess(postprocessService, singleton, config),
        { everyMs: config.postprocess.everyMs, afterVoteMs: Math.min(config.postprocess.everyMs, 1000), batchSize: 50 },
        (message, error) => logger.error({ err: error }, message),
        (report) => {
          metrics.postprocessPass(report);
          if (report.processed > 0) logger.info({ postprocess: report }, 'post-processing pass');
          // Languages and topics feed the leaderboard's views.
          if (report.done > 0) leaderboardRefresh.trigger();
        },
      )
    : undefined;
  const app = createApp({
    duels,
    operations,
    review: new ReviewService(store, runtime),
    integrity: new VoteIntegrityService(store, runtime, config.integrity),
    leaderboards,
    catalogue,
    datasets: new PublishedDatasetsService(store.datasets),
    checks: new MaxxCheckService(store, { enabled: config.maxxChecks, privateCohorts: config.privateCohorts }, runtime),
    site: new SiteService(
      store,
      [...(config.pagesDir ? [sitePageFiles(config.pagesDir)] : []), sitePageFiles(BUNDLED_PAGES)],
      config.voteGoal,
    ),
    limiter,
    proofOfWork,
    trustedProxies: new TrustedProxies(config.trustedProxies),
    metrics,
    logger,
    settings: {
      maxPromptChars: config.maxPromptChars,
      maxTurns: config.maxTurns,
      adminToken: config.adminToken,
      metricsToken: config.metricsToken,
      cookieSecure: config.cookieSecure,
      cohortHosts: config.cohortHosts,
    },
  });
  const interruptedTurns = new SweepJob(() => duels.failInterruptedTurns(), 60_000, {
    done: (duelIds) => {
      if (duelIds.length > 0) logger.warn({ duels: duelIds }, 'turns left streaming by a stopped process marked failed');
    },
    error: (message, error) => logger.error({ err: error }, message),
  });
  await interruptedTurns.start();
  const retention =
    config.retentionDays > 0
      ? new SweepJob(() => operations.purgeVisitorTraces(config.retentionDays), 6 * 3600_000, {
          done: (purged) => {
            if (purged.duels + purged.votes > 0) logger.info({ purged }, 'visitor traces past the retention period forgotten');
          },
          error: (message, error) => logger.error({ err: error }, message),
        })
      : undefined;
  await retention?.start();
  leaderboardRefresh.start();
  postprocessJob?.start();
  return {
    app,
    duels,
    leaderboards,
    leaderboardRefresh,
    postprocessJob,
    store,
    catalogue,
    metrics,
    logger,
    localModels,
    close: async () => {
      await interruptedTurns.stop();
      await retention?.stop();
      await duels.drain();
      await localModels.close();
      await postprocessJob?.stop();
      await postprocessService?.close();
      await leaderboardRefresh.stop();
      await rankingComputer.close();
      await limiter.close();
      await proofOfWork?.close();
      await store.close();
    },
  };
}

/**
 * The catalogue `agora serve` runs: AGORA_MODELS; but when it was not set, no model of the default
 * catalogue can be drawn (no key is set at all) and `agora models pull` wrote local models beside
 * it, those: `npm start` then works with no key and no network. One key set keeps the hosted
 * catalogue, so a missing key in production never silently turns the arena into local models.
 */
function serveCatalogue(config: Config, environment: Record<string, string | undefined>, logger: Logger): CatalogueModel[] {
  const models = loadCatalogue(config.modelsPath, environment);
  const localPath = join(dirname(resolve(config.modelsPath)), 'models.local.yaml');
  if (environment.AGORA_MODELS || models.some(isDrawable) || !existsSync(localPath)) return models;
  logger.warn(`no model of ${config.modelsPath} can be drawn (no key is set): using the local models of ${localPath}`);
  return loadCatalogue(localPath, environment);
}

/**
 * A local model whose file is missing, is not GGUF or cannot fit is never drawn, and says why.
 * Otherwise its GGUF header fills the facts the catalogue leaves out (parameters, architecture)
 * and gives its quantisation, for the reveal and the impact estimate.
 */
async function checkLocalModel(model: CatalogueModel, environment: Record<string, string | undefined>, logger: Logger): Promise<void> {
  const local = model.local!;
  if (model.unavailableReason !== null) return;
  if (local.huggingFace && !existsSync(local.path)) {
    // An `hf:` reference is fetched on first use, here, before the server listens.
    const { repo, revision, file } = local.huggingFace;
    const url = resolveUrl(environment.HF_ENDPOINT || 'https://huggingface.co', repo, revision, file);
    logger.info({ model: model.entry.id }, `downloading ${url} into ${local.path} (once; \`agora models pull\` shows progress)`);
    try {
      await downloadModelFile(url, local.path, { token: environment.HF_TOKEN || undefined });
    } catch (error) {
      model.unavailableReason = error instanceof Error ? error.message : String(error);
      return;
    }
  }
  model.unavailableReason = localModelFileProblem(local.path);
  if (model.unavailableReason !== null) return;
  try {
    const facts = await readLocalModelFacts(local.path);
    local.quantization = facts.quantization;
    if (model.entry.params_b === null) model.entry.params_b = facts.paramsB;
    if (model.entry.arch === 'unknown') model.entry.arch = facts.arch;
  } catch (error) {
    model.unavailableReason = `${local.path} is not a readable GGUF file (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** With several instances, post-processing passes run where the lease is held (each conversation is annotated once). */
function singletonPostprocess(
  service: PostprocessService,
  singleton: SingletonLease | undefined,
  config: Config,
): Pick<PostprocessService, 'runDue'> {
  if (!singleton) return service;
  const idle: PostprocessReport = { processed: 0, done: 0, flagged: 0, retrying: 0, failed: 0 };
  return {
    runDue: (limit) =>
      singleton.whenHeld(
        'postprocess',
        Math.max(30_000, 6 * config.postprocess.everyMs),
        () => service.runDue(limit),
        () => Promise.resolve(idle),
      ),
  };
}

/** Post-processing with a model layer (or none): the background job's and `agora postprocess`'s service. */
export function createPostprocessService(
  config: Config,
  store: Store,
  runtime: Runtime,
  annotator: ConversationAnnotator | undefined,
  options: { retryDelayMs?: number; threads?: number } = {},
): PostprocessService {
  // The rules layer off the event loop: on worker threads (one in the server, by default).
  const threads = options.threads ?? config.postprocess.threads;
  const rules = threads > 0 ? new ThreadedRulesLayer(threads) : inlineRulesLayer(lazyLanguageDetector());
  return new PostprocessService(store, rules, annotator, runtime, {
    maxAttempts: config.postprocess.maxAttempts,
    retryDelayMs: options.retryDelayMs ?? config.postprocess.everyMs,
    idleMs: config.postprocess.idleMs,
    concurrency: config.postprocess.concurrency,
  });
}

/**
 * The model layer of the screening and topics, or undefined when none is configured.
 * AGORA_ANNOTATION_MODEL names a catalogue model of any status: a tool model is usually
 * `disabled`, so that it is never drawn into duels.
 */
export function createAnnotator(
  config: Config,
  models: readonly CatalogueModel[],
  fetchOverride?: typeof fetch,
  modelId = config.postprocess.annotationModel,
): ConversationAnnotator | undefined {
  if (modelId === undefined) return undefined;
  const model = models.find((candidate) => candidate.entry.id === modelId);
  if (!model) throw new ConfigError(`AGORA_ANNOTATION_MODEL: no model "${modelId}" in the catalogue ${config.modelsPath}`);
  const keyName = apiKeyEnv(model.entry);
  if (keyName && !model.apiKey) throw new ConfigError(`AGORA_ANNOTATION_MODEL: model "${modelId}" needs ${keyName}, which is not set`);
  return createConversationAnnotator(modelId, createModelClient(model, fetchOverride), {
    timeoutMs: config.postprocess.annotationTimeoutMs,
  });
}

/** The store of `DATABASE_URL`, migrated: what the store commands of the CLI work on. */
export async function openStore(config: Pick<Config, 'database'>): Promise<Store> {
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return createStore(db);
}

/** The arena's stored votes as a ranking vote table: `agora leaderboard` without `--votes`. */
export async function loadStoreVoteTable(config: Config): Promise<VoteTable> {
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    return await storeVoteTable(createStore(db), config.integrity);
  } finally {
    await db.destroy();
  }
}

/** The address is taken (another Agora, or anything else): one line for the operator, not a stack trace. */
export class AddressInUseError extends Error {
  override readonly name = 'AddressInUseError';
}

/** Listens on the configured address; resolves once the socket is bound, rejects with {@link AddressInUseError} when it is taken. */
export function listen(
  arena: Arena,
  config: Pick<Config, 'port' | 'host' | 'requestTimeoutMs' | 'maxConnectionsPerClient' | 'trustedProxies'>,
): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: arena.app.fetch,
        port: config.port,
        hostname: config.host,
        // How often Node looks for requests past their time (30 s by default, longer than the limit itself).
        serverOptions: { connectionsCheckingInterval: Math.min(1000, config.requestTimeoutMs / 2) },
      },
      (info) => {
        arena.logger.info({ url: `http://${config.host}:${info.port}` }, 'agora is listening');
        resolve(server);
      },
    );
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new AddressInUseError(
              `port ${config.port} on ${config.host} is already in use: stop the program that holds it, or start Agora on another port (PORT=3001 npm start)`,
            )
          : error,
      );
    });
    if ('keepAliveTimeout' in server) {
      // Longer than the usual proxy and client idle timeouts, so that the server is never the side that
      // closes an idle keep-alive connection a client is about to reuse (that client would see ECONNRESET).
      server.keepAliveTimeout = 65_000;
      // A request's headers and body must arrive in time: slow bodies (slowloris) are cut off with 408.
      // Streams are answers, not requests: they are not bounded by this.
      server.requestTimeout = config.requestTimeoutMs;
      server.headersTimeout = Math.min(20_000, config.requestTimeoutMs);
      limitConnectionsPerClient(server, config.maxConnectionsPerClient, new TrustedProxies(config.trustedProxies));
    }
  });
}

/** Stops taking connections, lets running turns finish and be stored, then exits. */
export function closeOnSignals(arena: Arena, server: ServerType): void {
  const shutdown = (signal: string) => {
    arena.logger.info({ signal }, 'shutting down');
    server.close();
    void arena.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
