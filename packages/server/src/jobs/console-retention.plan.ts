import type { Job, JobLog, JobPlan } from './job';
import { durationWords } from './job';
import { SweepJob } from './sweep.job';

const EVERY_MS = 6 * 3_600_000;

/** Deletes audit-log entries past AGORA_AUDIT_RETENTION_DAYS, and console sessions and links past their end. */
export function consoleRetentionPlan(settings: { console: { auditRetentionDays: number } }): JobPlan {
  return {
    name: 'console-retention',
    purpose: `deletes audit-log entries older than ${settings.console.auditRetentionDays} days and console sessions and one-time links past their end`,
    schedule: `at start, then every ${durationWords(EVERY_MS)}`,
    on: [],
    emits: [],
    lease: null,
    off: null,
  };
}

export function consoleRetentionJob(
  settings: { console: { auditRetentionDays: number } },
  console: { audit: { purge(): Promise<number> }; staff: { purgeEnded(): Promise<number> } },
  log: JobLog,
): Job {
  const sweep = new SweepJob(
    async () => ({ auditEntries: await console.audit.purge(), sessionsAndLinks: await console.staff.purgeEnded() }),
    EVERY_MS,
    {
      done: (purged) => {
        if (purged.auditEntries + purged.sessionsAndLinks > 0) log.info({ purged }, 'console records past their retention deleted');
      },
      error: (message, error) => log.error({ err: error }, message),
    },
  );
  return { plan: consoleRetentionPlan(settings), start: () => sweep.start(), stop: () => sweep.stop() };
}
