/** Whether a start waits for the first sweep, or lets the server listen while it runs. */
export type FirstSweep = 'awaited' | 'in-background';

/**
 * A store sweep run once at start (a restart finds the work at once), then every `everyMs`: ending
 * turns a stopped process left streaming, forgetting visitor traces past the retention period.
 * Errors are logged; the next tick tries again. One sweep at a time.
 */
export class SweepJob<Result> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly sweep: () => Promise<Result>,
    private readonly everyMs: number,
    private readonly log: { done: (result: Result) => void; error: (message: string, error: unknown) => void },
    /**
     * 'in-background' for sweeps whose first run can be long (the retention purge rewrites every row
     * past the period: minutes on a large store never purged before): the server listens meanwhile.
     */
    private readonly first: FirstSweep = 'awaited',
  ) {}

  /** Starts the first sweep (resolving when it is done, unless in the background); later sweeps run in the background. */
  async start(): Promise<void> {
    const first = this.run();
    if (this.first === 'awaited') await first;
    this.timer = setInterval(() => void this.run(), this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private run(): Promise<void> {
    this.running = this.running.then(async () => {
      try {
        this.log.done(await this.sweep());
      } catch (error) {
        this.log.error('a store sweep failed', error);
      }
    });
    return this.running;
  }
}
