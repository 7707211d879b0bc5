import type { JobPlan } from './job';
import { interruptedTurnsPlan } from './interrupted-turns.plan';
import { leaderboardRefreshPlan } from './leaderboard-refresh.plan';
import { leaderboardSnapshotPlan } from './leaderboard-snapshot.plan';
import { postprocessPlan } from './postprocess.plan';
import { retentionPlan } from './retention.plan';
import { consoleRetentionPlan } from './console-retention.plan';
import { publicationPlan } from './publication.plan';
import { modelCatalogueSyncPlan } from './model-catalogue-sync.plan';

type JobSettings = Parameters<typeof retentionPlan>[0] &
  Parameters<typeof leaderboardRefreshPlan>[0] &
  Parameters<typeof leaderboardSnapshotPlan>[0] &
  Parameters<typeof postprocessPlan>[0] &
  Parameters<typeof consoleRetentionPlan>[0] &
  Parameters<typeof publicationPlan>[0] &
  Parameters<typeof modelCatalogueSyncPlan>[0];

/**
 * Every background job of the arena, in the order the composition root starts them: the store
 * sweeps first (a restart finds their work at once), then the leaderboard and post-processing.
 * `agora jobs` prints this list; main.ts builds the same jobs from their files.
 */
export function planJobs(settings: JobSettings): JobPlan[] {
  return [
    interruptedTurnsPlan(),
    retentionPlan(settings),
    consoleRetentionPlan(settings),
    modelCatalogueSyncPlan(settings),
    leaderboardRefreshPlan(settings),
    leaderboardSnapshotPlan(settings),
    postprocessPlan(settings),
    publicationPlan(settings),
  ];
}
