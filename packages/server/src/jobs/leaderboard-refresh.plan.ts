import type { LeaderboardService } from '../services/leaderboard.service';
import type { SingletonLease } from '../db/singleton-lease';
import type { ArenaEvents } from './arena-events';
import { type Job, type JobLog, type JobPlan, durationWords } from './job';
import { LeaderboardRefreshJob, type LeaderboardRefreshSchedule } from './leaderboard-refresh.job';

interface LeaderboardJobSettings {
  leaderboard: Omit<LeaderboardRefreshSchedule, 'everyTickEvenWithoutVotes'>;
  severalInstances: boolean;
}

/** Refits the live leaderboard; with several instances one of them fits it (a lease) and the others load its snapshot. */
export function leaderboardRefreshPlan(settings: LeaderboardJobSettings): JobPlan {
  const { everyVotes, everyMs, minIntervalMs } = settings.leaderboard;
  return {
    name: 'leaderboard-refresh',
    purpose: 'fits the leaderboard (every view: overall, per language, mode and topic; plain and style-controlled) and stores its snapshot',
    schedule:
      `at start; after ${everyVotes} ${everyVotes === 1 ? 'vote' : 'votes'} or every ${durationWords(everyMs)} ` +
      `${settings.severalInstances ? '(even without a vote here: votes may arrive at another instance)' : 'with new votes'}; ` +
      `never two closer than ${durationWords(minIntervalMs)}`,
    on: ['vote.recorded', 'conversations.screened'],
    emits: ['leaderboard.refreshed'],
    lease: settings.severalInstances ? 'leaderboard' : null,
    off: null,
  };
}

/** The running job: it listens to its events and emits `leaderboard.refreshed` after each refresh. */
export function leaderboardRefreshJob(
  settings: LeaderboardJobSettings,
  leaderboards: Pick<LeaderboardService, 'refresh' | 'reloadLatest'>,
  singleton: SingletonLease | undefined,
  events: ArenaEvents,
  log: JobLog,
): Job & { refresh: LeaderboardRefreshJob } {
  const refresh = new LeaderboardRefreshJob(
    singleton
      ? {
          refresh: () =>
            singleton.whenHeld(
              'leaderboard',
              3 * settings.leaderboard.everyMs,
              () => leaderboards.refresh(),
              () => leaderboards.reloadLatest(),
            ),
        }
      : leaderboards,
    { ...settings.leaderboard, everyTickEvenWithoutVotes: settings.severalInstances },
    (message, error) => log.error({ err: error }, message),
    () => events.emit('leaderboard.refreshed'),
  );
  events.on('vote.recorded', () => refresh.voteRecorded());
  events.on('conversations.screened', () => refresh.trigger());
  return { plan: leaderboardRefreshPlan(settings), refresh, start: () => refresh.start(), stop: () => refresh.stop() };
}
