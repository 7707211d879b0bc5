import { type ProgressLog, ReadProgress } from './read-progress';
import type { Runtime } from './ports/runtime';

const MESSAGES = {
  progress: 'post-processing: first sweep over the stored conversations (exports wait for it)',
  done: 'post-processing: first sweep done',
};

/**
 * The progress of the first sweep after a start (a store imported or left unscreened), logged with
 * an estimate of the time left like `agora postprocess` prints it: the due conversations are counted
 * once at its start, then each pass adds what it did, until the sweep is over. Nothing is logged
 * for a sweep shorter than `everyMs`.
 */
export class FirstSweepProgress {
  private state: { progress: ReadProgress; processed: number } | 'over' | undefined;

  constructor(
    private readonly runtime: Pick<Runtime, 'now'>,
    private readonly log: ProgressLog | undefined,
    private readonly everyMs = 5_000,
  ) {}

  /** Counts the due conversations before the sweep's first pass (once; not at all without a log). */
  async start(countDue: () => Promise<number>): Promise<void> {
    if (this.state !== undefined || !this.log) return;
    this.state = { progress: new ReadProgress(await countDue(), this.runtime, this.log, this.everyMs, MESSAGES), processed: 0 };
  }

  /** A pass of the sweep did `processed` conversations; `over` when it was the sweep's last. */
  advance(processed: number, over: boolean): void {
    if (typeof this.state !== 'object') return;
    this.state.processed += processed;
    if (over) {
      this.state.progress.done(this.state.processed);
      this.state = 'over';
    } else this.state.progress.update(this.state.processed);
  }
}
