import type { Job, JobLog, JobPlan } from './job';
import { durationWords } from './job';
import { SweepJob } from './sweep.job';

const EVERY_MS = 6 * 3_600_000;

/** Forgets visitor traces past the retention period (AGORA_RETENTION_DAYS); off when it is 0. */
export function retentionPlan(settings: { retentionDays: number }): JobPlan {
  return {
    name: 'retention',
    purpose: `forgets who played the duels started more than ${settings.retentionDays > 0 ? settings.retentionDays : 'AGORA_RETENTION_DAYS'} days ago (the visitor cookie's hash, the hashed client address of their votes)`,
    schedule: `at start (the server listens meanwhile), then every ${durationWords(EVERY_MS)}`,
    on: [],
    emits: [],
    lease: null,
    off: settings.retentionDays > 0 ? null : 'AGORA_RETENTION_DAYS is 0 (traces are kept)',
  };
}

export function retentionJob(
  settings: { retentionDays: number },
  operations: { purgeVisitorTraces(days: number): Promise<{ duels: number; votes: number }> },
  log: JobLog,
): Job {
  const sweep = new SweepJob(
    () => operations.purgeVisitorTraces(settings.retentionDays),
    EVERY_MS,
    {
      done: (purged) => {
        if (purged.duels + purged.votes > 0) log.info({ purged }, 'visitor traces past the retention period forgotten');
      },
      error: (message, error) => log.error({ err: error }, message),
    },
    'in-background',
  );
  return { plan: retentionPlan(settings), start: () => sweep.start(), stop: () => sweep.stop() };
}
