import type { Hono } from 'hono';
import type { Logger } from 'pino';
import type { Store } from '../db/unit-of-work';
import type { AppEnv } from '../http/app-env';
import type { Job } from '../jobs/job';
import type { LeaderboardRefreshJob } from '../jobs/leaderboard-refresh.job';
import type { PostprocessJob } from '../jobs/postprocess.job';
import type { PrometheusMetrics } from '../observability/prometheus-metrics';
import type { LocalModelRuntime } from '../providers/llama-cpp/local-model-runtime';
import type { ArenaCatalogue } from '../services/arena-catalogue';
import type { DuelService } from '../services/duels/duel.service';
import type { LeaderboardService } from '../services/leaderboard.service';
import type { ConsoleServices } from '../http/routes/console';

// What createArena (main.ts) builds, in a module of its own: listen.ts serves and closes an arena,
// and main.ts builds one and re-exports listen; with the type here, neither imports the other.

/** A wired arena: the HTTP app and the services behind it. */
export interface Arena {
  app: Hono<AppEnv>;
  duels: DuelService;
  leaderboards: LeaderboardService;
  leaderboardRefresh: LeaderboardRefreshJob;
  /** Background post-processing; undefined when AGORA_POSTPROCESS is off. */
  postprocessJob: PostprocessJob | undefined;
  /** The operator's console: staff, audit log and the console's areas. */
  console: ConsoleServices;
  /** The background jobs, in their start order (jobs/registry.ts lists them). */
  jobs: readonly Job[];
  store: Store;
  catalogue: ArenaCatalogue;
  metrics: PrometheusMetrics;
  logger: Logger;
  /** llama.cpp in this process, for the catalogue's local models. */
  localModels: LocalModelRuntime;
  /** Waits for running turns to be stored, then closes the store. */
  close(): Promise<void>;
}
