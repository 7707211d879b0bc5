import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { createProofOfWork } from '../adapters/proof-of-work';
import { type RankingComputer, WorkerRankingComputer } from '../adapters/ranking-worker/ranking-computer';
import { createRequestLimiter } from '../adapters/request-limiter';
import type { CatalogueModel } from '../config/catalogue';
import type { Config } from '../config/config';
import type { Store } from '../db/unit-of-work';
import type { ArenaEvents } from '../jobs/arena-events';
import { PrometheusMetrics } from '../observability/prometheus-metrics';
import type { ModelRegistry } from '../providers/registry';
import type { ArenaCatalogue } from '../services/arena-catalogue';
import { DuelService } from '../services/duels/duel.service';
import { LeaderboardService } from '../services/leaderboard.service';
import { KeptColumnsSnapshot } from '../services/leaderboard-columns-snapshot';
import { columnsSnapshotTable } from '../services/leaderboard-columns-table';
import { columnsSnapshotFile } from '../adapters/ranking-columns-snapshot';
import { columnsSnapshotPlace } from '../jobs/leaderboard-snapshot.plan';
import { OperationsService } from '../services/operations.service';
import { PairingPolicy } from '../services/pairing-policy';
import { createRevealImpactEstimator } from '../services/reveal-impact';
import { judgeRecordedVote } from '../services/vote-integrity';
import { type EnergyClasses, catalogueEnergyClasses } from '../services/energy-classes';
import type { Runtime } from '../services/ports/runtime';

/** What the services are built from: the store, the models and the process's clock, logger and events. */
export interface ServiceParts {
  config: Config;
  models: readonly CatalogueModel[];
  catalogue: ArenaCatalogue;
  registry: ModelRegistry;
  store: Store;
  runtime: Runtime;
  events: ArenaEvents;
  logger: Logger;
  rankingComputer?: RankingComputer;
}

/** The services the HTTP app and the jobs share, and what they hold open (closed by the arena's close). */
export function createArenaServices(parts: ServiceParts) {
  const { config, catalogue, store, runtime } = parts;
  // Several instances: each labels its series with its host name and process id.
  const metrics = new PrometheusMetrics(config.severalInstances ? `${hostname()}:${process.pid}` : undefined);
  const pairing = new PairingPolicy(config.pairing, catalogue);
  const sharedCounters = config.database.kind === 'postgres' ? { postgresUrl: config.database.url } : undefined;
  const limiter = createRequestLimiter(config.rateLimits, sharedCounters);
  const proofOfWork = config.proofOfWork ? createProofOfWork(config.proofOfWork, sharedCounters) : undefined;
  const energyClasses = catalogueEnergyClasses(catalogue.publicCards(), config.impact);
  const duels = createDuelService(parts, { metrics, pairing, limiter, proofOfWork }, energyClasses);
  const rankingComputer = parts.rankingComputer ?? new WorkerRankingComputer();
  const leaderboards = new LeaderboardService({
    store,
    catalogue,
    computer: rankingComputer,
    runtime,
    settings: {
      minVotes: config.leaderboard.minVotes,
      reactions: config.leaderboard.reactions,
      customModeOnMainBoard: config.leaderboard.customModeOnMainBoard,
      promptDedup: config.leaderboard.promptDedup,
      impact: config.impact,
      integrity: config.integrity,
    },
    energyClasses,
    log: (fields, message) => parts.logger.info(fields, message),
    columnsSnapshot: columnsSnapshotOf(parts),
  });
  // The pairing policy draws from the latest overall board.
  parts.events.on('leaderboard.refreshed', () => pairing.update(leaderboards.latestOverall()));
  return {
    metrics,
    pairing,
    limiter,
    proofOfWork,
    duels,
    rankingComputer,
    leaderboards,
    operations: new OperationsService(store, runtime.now),
  };
}

export type ArenaServices = ReturnType<typeof createArenaServices>;

function createDuelService(
  { config, models, catalogue, registry, store, runtime, events, logger }: ServiceParts,
  shared: Pick<ArenaServices, 'metrics' | 'pairing' | 'limiter' | 'proofOfWork'>,
  energyClasses: EnergyClasses,
): DuelService {
  return new DuelService({
    store,
    catalogue,
    registry,
    runtime,
    ...shared,
    settings: {
      maxTurns: config.maxTurns,
      upstreamRetries: config.upstreamRetries,
      replayTtlMs: config.replayTtlMs,
      severalInstances: config.severalInstances,
      // Every attempt of the slowest model, one replacement, and a minute of margin.
      turnDeadlineMs: (config.upstreamRetries + 2) * Math.max(0, ...models.map((model) => model.options.totalTimeoutMs)) + 60_000,
    },
    estimateImpact: createRevealImpactEstimator(catalogue, config.impact, energyClasses),
    onVoteRecorded: () => events.emit('vote.recorded'),
    judgeVote: (vote) => judgeRecordedVote(store, config.integrity, vote),
    logError: (message, error) => logger.error({ err: error }, message),
    logUpstream: (entry) =>
      entry.status === 'complete'
        ? logger.info({ upstream: entry }, 'upstream call')
        : logger.warn({ upstream: entry }, 'upstream call failed'),
  });
}

/** The kept votes' snapshot, when the configuration has one (jobs/leaderboard-snapshot.plan.ts writes it). */
function columnsSnapshotOf({ config, store, runtime, logger }: ServiceParts): KeptColumnsSnapshot | undefined {
  const place = columnsSnapshotPlace(config);
  if (place === undefined) return undefined;
  const storage = 'file' in place ? columnsSnapshotFile(place.file) : columnsSnapshotTable(store, runtime);
  return new KeptColumnsSnapshot({ storage, everyMs: config.leaderboard.snapshotEveryMs }, runtime, logger);
}
