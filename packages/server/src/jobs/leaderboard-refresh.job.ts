import type { LeaderboardService } from '../services/leaderboard.service';

export interface LeaderboardRefreshSchedule {
  /** Refresh after this many new votes… */
  everyVotes: number;
  /** …or this often while votes keep coming (and once at start). */
  everyMs: number;
}

/**
 * Keeps the leaderboard fresh in the background: after every K votes or T milliseconds with new
 * votes. One refresh at a time; votes that arrive during a refresh trigger one more afterwards.
 * Requests never wait for it.
 */
export class LeaderboardRefreshJob {
  private votesSinceRefresh = 0;
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly leaderboards: LeaderboardService,
    private readonly schedule: LeaderboardRefreshSchedule,
    private readonly logError: (message: string, error: unknown) => void,
    private readonly onRefreshed: () => void = () => {},
  ) {}

  start(): void {
    this.trigger();
    this.timer = setInterval(() => {
      if (this.votesSinceRefresh > 0) this.trigger();
    }, this.schedule.everyMs);
    this.timer.unref();
  }

  /** Called for every acknowledged vote. */
  voteRecorded(): void {
    this.votesSinceRefresh += 1;
    if (this.votesSinceRefresh >= this.schedule.everyVotes) this.trigger();
  }

  /** Starts a refresh now, or right after the one under way. */
  trigger(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.votesSinceRefresh = 0;
    this.running = this.leaderboards
      .refresh()
      .then(() => this.onRefreshed())
      .catch((error: unknown) => this.logError('leaderboard refresh failed', error))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.trigger();
        }
      });
  }

  /** Stops the timer and waits for a refresh under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.again = false;
    await this.running;
  }

  /** Resolves once no refresh is running or queued (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}
