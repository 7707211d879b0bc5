import type { PostprocessReport, PostprocessService } from '../services/postprocess/postprocess.service';

export interface PostprocessSchedule {
  /** Looks for finished conversations this often… */
  everyMs: number;
  /** …and this long after a vote: the votes of a burst share one pass instead of one pass each. */
  afterVoteMs: number;
  /** …and annotates at most this many per pass (a full pass is followed by another one)… */
  batchSize: number;
  /**
   * …after a pause that keeps the passes of a catch-up to at most this share of the event loop
   * (0 < share ≤ 1): after a full pass during which the event loop was busy for b ms (the pass's
   * work and the requests served meanwhile, not its waits for model calls), the next one starts
   * b × (1 / share − 1) ms later. The passes share the event loop with the requests; under a burst
   * of votes they would otherwise take it back to back, and the votes would wait for them.
   */
  catchUpShare: number;
}

/**
 * Post-processes finished conversations in the background: every T milliseconds, and shortly after
 * a vote (the usual end of a duel; votes arriving meanwhile share that pass, so that a burst of
 * votes costs one pass, not one each). One pass at a time; a request during a pass runs one more.
 * A backlog is worked off page by page, with pauses that leave the requests their share of the
 * event loop ({@link PostprocessSchedule.catchUpShare}).
 * Failures of one conversation are stored by the service and retried with backoff; an error of
 * the pass itself (store unreachable) is logged and the next tick tries again.
 */
export class PostprocessJob {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private afterVote: NodeJS.Timeout | undefined;
  /** Between two passes of a catch-up. */
  private pause: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly service: PostprocessService,
    private readonly schedule: PostprocessSchedule,
    private readonly logError: (message: string, error: unknown) => void,
    private readonly onPass: (report: PostprocessReport) => void = () => {},
  ) {}

  start(): void {
    this.timer = setInterval(() => this.nudge(), this.schedule.everyMs);
    this.timer.unref();
    this.nudge();
  }

  /** A vote ended a duel: runs a pass soon, shared with the other votes until then. */
  voteRecorded(): void {
    if (this.stopped || this.afterVote) return;
    this.afterVote = setTimeout(() => {
      this.afterVote = undefined;
      this.nudge();
    }, this.schedule.afterVoteMs);
    this.afterVote.unref();
  }

  /** Runs a pass now, or once more after the one under way (or the pause after it). */
  nudge(): void {
    if (this.stopped) return;
    if (this.running || this.pause) {
      this.again = true;
      return;
    }
    const loopBefore = performance.eventLoopUtilization();
    let full = false;
    this.running = this.service
      .runDue(this.schedule.batchSize)
      .then((report) => {
        this.onPass(report);
        full = report.processed === this.schedule.batchSize;
      })
      .catch((error: unknown) => this.logError('post-processing pass failed', error))
      .finally(() => {
        this.running = undefined;
        if (this.stopped || (!full && !this.again)) return;
        this.again = false;
        // The event loop's busy time during the pass (its work and the requests served meanwhile),
        // not the time spent waiting for model calls: a busier server gets a longer pause.
        const busyMs = performance.eventLoopUtilization(loopBefore).active;
        const pauseMs = full ? busyMs * (1 / this.schedule.catchUpShare - 1) : 0;
        if (pauseMs <= 0) return this.nudge();
        this.pause = setTimeout(() => {
          this.pause = undefined;
          // The pass that ends the pause covers the nudges made during it.
          this.again = false;
          this.nudge();
        }, pauseMs);
        this.pause.unref();
      });
  }

  /** Stops the timer and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.afterVote);
    clearTimeout(this.pause);
    this.pause = undefined;
    this.again = false;
    await this.running;
  }

  /** Resolves once no pass is running or due after a pause (tests). */
  async idle(): Promise<void> {
    while (this.running || this.pause) await (this.running ?? new Promise((resolve) => setTimeout(resolve, 5)));
  }
}
