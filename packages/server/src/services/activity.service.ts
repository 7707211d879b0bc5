import type { Activity } from '@agora/contract';
import type { ActivityRepository } from '../db/repositories/activity.repository';
import { activityPeriod, consoleActivity } from '../domain/statistics/console-activity';
import type { Runtime } from './ports/runtime';

/**
 * The console's activity figures (reviewers): read from the store at each request, not kept in the
 * process, so that every instance answers the same for the same period. The period ends today (UTC,
 * by this instance's clock).
 */
export class ActivityService {
  constructor(
    private readonly activity: Pick<ActivityRepository, 'counts'>,
    private readonly runtime: Pick<Runtime, 'now'>,
  ) {}

  async lastDays(days: number): Promise<Activity> {
    const now = this.runtime.now();
    const period = activityPeriod(now, days);
    return consoleActivity(await this.activity.counts(period.since), period, now.toISOString());
  }
}
