/** How often the console's scheduled publication exports and pushes (docs/operations.md#publication). */
export type PublicationSchedule = 'off' | 'daily' | 'weekly';

const PERIOD_MS: Record<Exclude<PublicationSchedule, 'off'>, number> = {
  daily: 24 * 3_600_000,
  weekly: 7 * 24 * 3_600_000,
};

/**
 * When the next scheduled publication is due: a period after the last one, or at once when there
 * was none (the schedule was just turned on); null when the schedule is off.
 */
export function nextScheduledAt(schedule: PublicationSchedule, lastAt: string | null, now: Date): Date | null {
  if (schedule === 'off') return null;
  if (lastAt === null) return now;
  return new Date(Date.parse(lastAt) + PERIOD_MS[schedule]);
}

export function scheduledPublicationDue(schedule: PublicationSchedule, lastAt: string | null, now: Date): boolean {
  const next = nextScheduledAt(schedule, lastAt, now);
  return next !== null && next.getTime() <= now.getTime();
}

export type PublicationRunStatus = 'running' | 'done' | 'failed' | 'interrupted';

/**
 * A run as the console reads it: one still marked running whose heartbeat stopped longer ago than
 * `staleMs` lost its instance (a crash, a kill) and is reported interrupted.
 */
export function runStatusOf(stored: string, heartbeatAt: string, now: Date, staleMs: number): PublicationRunStatus {
  if (stored === 'running') return now.getTime() - Date.parse(heartbeatAt) > staleMs ? 'interrupted' : 'running';
  return stored === 'done' || stored === 'failed' ? stored : 'interrupted';
}
