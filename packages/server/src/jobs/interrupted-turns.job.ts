/**
 * Ends the turns a stopped process left streaming: once at start (a restart after kill -9 finds
 * them at once), then every `everyMs` (another instance may have died). Errors are logged; the next
 * tick tries again.
 */
export class InterruptedTurnsJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly sweep: () => Promise<string[]>,
    private readonly everyMs: number,
    private readonly log: { ended: (duelIds: string[]) => void; error: (message: string, error: unknown) => void },
  ) {}

  /** Runs the first sweep and resolves when it is done; later sweeps run in the background. */
  async start(): Promise<void> {
    await this.run();
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
        const ended = await this.sweep();
        if (ended.length > 0) this.log.ended(ended);
      } catch (error) {
        this.log.error('ending interrupted turns failed', error);
      }
    });
    return this.running;
  }
}
