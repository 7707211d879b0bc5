import type { Job, JobLog, JobPlan } from './job';
import { durationWords } from './job';
import { SweepJob } from './sweep.job';

type SyncSettings = { console: { modelSyncMs: number } };

/**
 * Every instance reads the console's change stamp of the models (one row) and, when it moved,
 * applies the overrides: a model added, changed or disabled on one instance is drawn (or not) on
 * all within this interval. No lease: each instance keeps its own catalogue.
 */
export function modelCatalogueSyncPlan(settings: SyncSettings): JobPlan {
  return {
    name: 'model-catalogue-sync',
    purpose: "applies the console's model overrides (enabled, facts, added models) when their change stamp in the store moved",
    schedule: `at start, then every ${durationWords(settings.console.modelSyncMs)}`,
    on: [],
    emits: [],
    lease: null,
    off: null,
  };
}

export function modelCatalogueSyncJob(settings: SyncSettings, models: { sync(): Promise<boolean> }, log: JobLog): Job {
  const sweep = new SweepJob(() => models.sync(), settings.console.modelSyncMs, {
    done: (changed) => {
      if (changed) log.info({}, 'model overrides applied');
    },
    error: (message, error) => log.error({ err: error }, `model overrides: ${message}`),
  });
  return { plan: modelCatalogueSyncPlan(settings), start: () => sweep.start(), stop: () => sweep.stop() };
}
