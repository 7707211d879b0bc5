import type { Runtime } from './ports/runtime';

/** Where a long read reports its progress (the arena's logger). */
export type ProgressLog = (fields: Record<string, number>, message: string) => void;

/** Logs a read's progress with an estimate of the time left, at most every `everyMs`, when it lasts longer than that. */
export class ReadProgress {
  private readonly startedAt: number;
  private lastLog: number;

  constructor(
    private readonly total: number,
    private readonly runtime: Pick<Runtime, 'now'>,
    private readonly log: ProgressLog | undefined,
    private readonly everyMs = 5_000,
    /** The log lines' messages: while reading, and at the end (post-processing's first sweep has its own). */
    private readonly messages = {
      progress: 'leaderboard: reading the stored votes (the board shows its last snapshot meanwhile)',
      done: 'leaderboard: stored votes read',
    },
  ) {
    this.startedAt = runtime.now().getTime();
    this.lastLog = this.startedAt;
  }

  update(read: number): void {
    const now = this.runtime.now().getTime();
    if (!this.log || now - this.lastLog < this.everyMs) return;
    this.lastLog = now;
    const elapsed = now - this.startedAt;
    const left = Math.max(0, this.total - read);
    const etaS = read > 0 ? Math.round(((elapsed / read) * left) / 1000) : Number.NaN;
    this.log({ read, total: this.total, eta_s: etaS }, this.messages.progress);
  }

  done(read: number): void {
    const elapsed = this.runtime.now().getTime() - this.startedAt;
    if (this.log && elapsed >= this.everyMs) this.log({ read, seconds: Math.round(elapsed / 100) / 10 }, this.messages.done);
  }
}

/**
 * Lets timers and sockets run between two pages of votes. The SQLite driver answers synchronously,
 * so a read awaited page after page never leaves the microtask queue: a start on 300,000 votes
 * bound its port only after the whole read (8.7 s; 70 s at 2.5 million).
 */
export function nextTurnOfTheEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
