import { Worker } from 'node:worker_threads';
import type { Leaderboard } from '../../domain/ranking';
import { computeViewsFromColumns, type ViewDefinition } from '../../domain/ranking/leaderboard-views';
import type { VoteColumns } from '../../domain/ranking/vote-columns';

/** Ranks leaderboard views: in a worker thread in the server, inline where blocking does not matter. */
export interface RankingComputer {
  /** Ranks the views of the columns' counted votes. The columns must not change until the answer comes. */
  computeViews(columns: VoteColumns, counted: Uint8Array, views: readonly ViewDefinition[]): Promise<Map<string, Leaderboard>>;
  close(): Promise<void>;
}

export const inlineRankingComputer: RankingComputer = {
  computeViews: async (columns, counted, views) => computeViewsFromColumns(columns, counted, views),
  close: async () => {},
};

/**
 * One worker thread, started on first use; requests are answered in order. A thread idle for
 * `idleMs` stops: its heap (the vote tables of millions of votes) goes back to the system, which a
 * live thread's collector does not do (at 1M votes: 576 MB at rest with the thread kept, 387 MB
 * without). Refreshes closer together than that keep it warm.
 */
export class WorkerRankingComputer implements RankingComputer {
  private worker: Worker | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private nextId = 0;

  constructor(private readonly idleMs = 10_000) {}
  private readonly pending = new Map<number, { resolve: (results: Map<string, Leaderboard>) => void; reject: (error: Error) => void }>();

  computeViews(columns: VoteColumns, counted: Uint8Array, views: readonly ViewDefinition[]): Promise<Map<string, Leaderboard>> {
    clearTimeout(this.idleTimer);
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // The columns live in SharedArrayBuffers: the worker reads the server's memory, with no copy.
      worker.postMessage({ id, columns, counted, views }, [counted.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    // The entry registers the TypeScript loader itself (see ranking-worker.mjs), whatever the parent runs under.
    const worker = new Worker(new URL('./ranking-worker.mjs', import.meta.url), { execArgv: [] });
    worker.unref();
    worker.on('message', (message: { id: number; results?: [string, Leaderboard][]; error?: string }) => {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error !== undefined) waiting?.reject(new Error(`ranking failed: ${message.error}`));
      else waiting?.resolve(new Map(message.results));
      if (this.pending.size === 0) {
        clearTimeout(this.idleTimer);
        this.idleTimer = setTimeout(() => void this.close(), this.idleMs);
        this.idleTimer.unref();
      }
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', () => {
      // A thread stopped on purpose (idle, close) is no longer ours; one that died took its requests with it.
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(new Error('the ranking worker stopped'));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
