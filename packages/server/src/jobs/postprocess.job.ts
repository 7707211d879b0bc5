import type { PostprocessReport, PostprocessService } from '../services/postprocess.service';

export interface PostprocessSchedule {
  /** Looks for finished conversations this often… */
  everyMs: number;
  /** …and this long after a vote: the votes of a burst share one pass instead of one pass each. */
  afterVoteMs: number;
  /** …and annotates at most this many per pass (a full pass starts the next one at once). */
  batchSize: number;
}

/**
 * Post-processes finished conversations in the background: every T milliseconds, and shortly after
 * a vote (the usual end of a duel; votes arriving meanwhile share that pass, so that a burst of
 * votes costs one pass, not one each). One pass at a time; a request during a pass runs one more.
 * Failures of one conversation are stored by the service and retried with backoff; an error of
 * the pass itself (store unreachable) is logged and the next tick tries again.
 */
export class PostprocessJob {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private afterVote: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly service: Pick<PostprocessService, 'runDue'>,
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

  /** Runs a pass now, or once more after the one under way. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.service
      .runDue(this.schedule.batchSize)
      .then((report) => {
        this.onPass(report);
        if (report.processed === this.schedule.batchSize) this.again = true;
      })
      .catch((error: unknown) => this.logError('post-processing pass failed', error))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
  }

  /** Stops the timer and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.afterVote);
    this.again = false;
    await this.running;
  }

  /** Resolves once no pass is running (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}
