import { pino, type Logger } from 'pino';
import type { RankingComputer } from './adapters/ranking-worker/ranking-computer';
import { type CatalogueModel } from './config/catalogue';
import type { Config } from './config/config';
import { openDatabase } from './db/dialect';
import { migrateToLatest } from './db/migrate';
import { createStore } from './db/unit-of-work';
import { ArenaEvents } from './jobs/arena-events';
import { startJobs, stopJobs } from './jobs/job';
import { LocalModelRuntime } from './providers/llama-cpp/local-model-runtime';
import { createModelClient, createModelRegistry } from './providers/create-model-client';
import type { ModelClient } from './providers/spec';
import { ArenaCatalogue } from './services/arena-catalogue';
import { type Runtime, systemRuntime } from './services/ports/runtime';
import { checkLocalModel, loadLocalModels, serveCatalogue } from './composition/arena-models';
import { createArenaServices } from './composition/arena-services';
import { createArenaJobs } from './composition/arena-jobs';
import { createHttpApp } from './composition/http-app';
import { createConsoleServices } from './composition/console-services';
import type { Arena } from './composition/arena';
export type { Arena } from './composition/arena';
export { AddressInUseError, closeOnSignals, listen } from './composition/listen';
export { loadStoreVoteTable, openStore } from './composition/store-access';
export { createAnnotator, createPostprocessService } from './composition/postprocess-service';
export { createMaxxService, sameOrganisationWarnings } from './services/maxx/create-maxx-service';

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
 * The composition root: config → models → store (migrated) → services → jobs and their events →
 * HTTP app. Plain constructors, no container; composition/ builds each part, this function only
 * puts them together and owns the order of start and close.
 */
export async function createArena(
  config: Config,
  environment: Record<string, string | undefined>,
  overrides: ArenaOverrides = {},
): Promise<Arena> {
  const logger = overrides.logger ?? pino({ level: config.logLevel, base: undefined });
  const { models, catalogue, localModels, registry, clientOf } = await prepareModels(config, environment, overrides, logger);
  const db = openDatabase(config.database, { backgroundCheckpoints: true });
  await migrateToLatest(db);
  const store = createStore(db);
  const runtime = overrides.runtime ?? systemRuntime;
  const events = new ArenaEvents((message, error) => logger.error({ err: error }, message));
  const parts = { config, models, catalogue, registry, store, runtime, events, logger };
  const services = createArenaServices({ ...parts, rankingComputer: overrides.rankingComputer });
  const consoleServices = createConsoleServices({ ...parts, clientOf, environment });
  const { sweeps, followers, leaderboardRefresh, postprocessJob, postprocessService } = createArenaJobs(
    parts,
    services,
    consoleServices,
    overrides.fetch,
  );
  const app = createHttpApp(parts, services, consoleServices);
  await startJobs([...sweeps, ...followers]);
  return {
    app,
    duels: services.duels,
    leaderboards: services.leaderboards,
    leaderboardRefresh,
    postprocessJob,
    console: consoleServices,
    jobs: [...sweeps, ...followers],
    store,
    catalogue,
    metrics: services.metrics,
    logger,
    localModels,
    close: async () => {
      // The sweeps stop first; running turns end and are stored (their votes still reach the jobs); then the rest.
      await stopJobs(sweeps);
      await services.duels.drain();
      await localModels.close();
      await stopJobs(followers);
      await postprocessService?.close();
      await services.rankingComputer.close();
      await services.limiter.close();
      await services.proofOfWork?.close();
      await store.close();
    },
  };
}

/** The catalogue's models, their local files checked and loading, and a client for each. */
async function prepareModels(config: Config, environment: Record<string, string | undefined>, overrides: ArenaOverrides, logger: Logger) {
  const models = overrides.catalogue ?? serveCatalogue(config, environment, logger);
  for (const model of models) if (model.local) await checkLocalModel(model, environment, logger);
  const catalogue = new ArenaCatalogue(models, config.demo);
  const localModels = new LocalModelRuntime();
  const clientOf = overrides.modelClient ?? ((model: CatalogueModel) => createModelClient(model, overrides.fetch, localModels));
  const registry = createModelRegistry(models, clientOf);
  loadLocalModels(models, localModels, logger);
  for (const model of models) {
    if (model.unavailableReason) logger.warn({ model: model.entry.id }, `model unavailable: ${model.unavailableReason}`);
  }
  const setupHint = catalogue.setupHint();
  if (setupHint) logger.warn(setupHint);
  return { models, catalogue, localModels, registry, clientOf };
}
