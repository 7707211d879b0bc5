import type { Logger } from 'pino';
import type { CatalogueModel } from '../config/catalogue';
import type { Config } from '../config/config';
import type { Store } from '../db/unit-of-work';
import type { ArenaEvents } from '../jobs/arena-events';
import { interruptedTurnsJob } from '../jobs/interrupted-turns.plan';
import type { Job } from '../jobs/job';
import { leaderboardRefreshJob } from '../jobs/leaderboard-refresh.plan';
import { leaderboardSnapshotJob } from '../jobs/leaderboard-snapshot.plan';
import { postprocessJob } from '../jobs/postprocess.plan';
import { retentionJob } from '../jobs/retention.plan';
import { consoleRetentionJob } from '../jobs/console-retention.plan';
import { publicationJob } from '../jobs/publication.plan';
import { modelCatalogueSyncJob } from '../jobs/model-catalogue-sync.plan';
import type { ConsoleServices } from '../http/routes/console';
import type { Runtime } from '../services/ports/runtime';
import { SingletonLease } from '../db/singleton-lease';
import type { ArenaServices } from './arena-services';
import { createAnnotator, createPostprocessService } from './postprocess-service';

/**
 * The arena's background jobs, in the order of `planJobs` (jobs/registry.ts), built from their
 * declarations; they subscribe to the events they wait for. Nothing starts here.
 */
export function createArenaJobs(
  parts: { config: Config; models: readonly CatalogueModel[]; store: Store; runtime: Runtime; events: ArenaEvents; logger: Logger },
  services: ArenaServices,
  consoleServices: ConsoleServices,
  fetchOverride?: typeof fetch,
) {
  const { config, store, runtime, events, logger } = parts;
  // Several instances: one of them fits the leaderboard and post-processes at a time (a lease in the
  // store); the others read the snapshots it stores.
  const singleton = config.severalInstances ? new SingletonLease(store, runtime) : undefined;
  const leaderboard = leaderboardRefreshJob(config, services.leaderboards, singleton, events, logger);
  const postprocessService = config.postprocess.enabled
    ? createPostprocessService(config, store, runtime, createAnnotator(config, parts.models, fetchOverride), {
        // The first sweep after a start (an import, a store left unscreened) says how far it is.
        progressLog: (fields, message) => logger.info(fields, message),
      })
    : undefined;
  const postprocess = postprocessService
    ? postprocessJob(config, postprocessService, singleton, events, logger, (report) => services.metrics.postprocessPass(report))
    : undefined;
  // The store sweeps, then the jobs that follow the arena's events.
  const sweeps: Job[] = [
    interruptedTurnsJob(services.duels, logger),
    retentionJob(config, services.operations, logger),
    consoleRetentionJob(config, consoleServices, logger),
    modelCatalogueSyncJob(config, consoleServices.models, logger),
  ];
  const publication = consoleServices.publication;
  const followers: Job[] = [
    leaderboard,
    leaderboardSnapshotJob(config, services.leaderboards, events, logger),
    ...(postprocess ? [postprocess] : []),
    publicationJob(config, { publishIfDue: () => publication.publishIfDue(), drain: (abort) => publication.runs.drain(abort) }, logger),
  ];
  return { sweeps, followers, leaderboardRefresh: leaderboard.refresh, postprocessJob: postprocess?.passes, postprocessService };
}
