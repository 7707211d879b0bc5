export interface LeaderboardRefreshSchedule {
  /** Refresh after this many new votes… */
  everyVotes: number;
  /** …or this often while votes keep coming (and once at start). */
  everyMs: number;
  /** Never two refreshes closer than this: under a burst of votes, K would otherwise mean a refresh every few milliseconds. */
  minIntervalMs: number;
  /** Refresh every T milliseconds even without a vote here (several instances: the votes may arrive at another one). */
  everyTickEvenWithoutVotes?: boolean;
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
  private delayed: NodeJS.Timeout | undefined;
  private lastStartedAt = Number.NEGATIVE_INFINITY;
  /** Set by stop(): an event after it (a screened conversation at shutdown) starts nothing. */
  private stopped = false;

  constructor(
    private readonly leaderboards: { refresh(): Promise<unknown> },
    private readonly schedule: LeaderboardRefreshSchedule,
    private readonly logError: (message: string, error: unknown) => void,
    private readonly onRefreshed: () => void = () => {},
  ) {}

  start(): void {
    this.trigger();
    this.timer = setInterval(() => {
      if (this.votesSinceRefresh > 0 || this.schedule.everyTickEvenWithoutVotes) this.trigger();
    }, this.schedule.everyMs);
    this.timer.unref();
  }

  /** Called for every acknowledged vote. */
  voteRecorded(): void {
    this.votesSinceRefresh += 1;
    if (this.votesSinceRefresh >= this.schedule.everyVotes) this.trigger();
  }

  /** Starts a refresh now, or right after the one under way, or once the minimum interval has passed. */
  trigger(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    const wait = this.lastStartedAt + this.schedule.minIntervalMs - performance.now();
    if (wait > 0) {
      this.delayed ??= setTimeout(() => {
        this.delayed = undefined;
        this.trigger();
      }, wait);
      this.delayed.unref();
      return;
    }
    this.votesSinceRefresh = 0;
    this.lastStartedAt = performance.now();
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
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.delayed);
    this.delayed = undefined;
    this.again = false;
    await this.running;
  }

  /** Resolves once no refresh is running or waiting for its turn (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running || this.delayed) {
      if (this.running) await this.running;
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
