import { Worker } from 'node:worker_threads';
import { type RulesInput, type RulesLayer, type RulesOutput, WARM_UP_INPUT } from './rules-layer';
import type { RulesReply, RulesRequest } from './rules-layer-worker';

/**
 * The rules layer on worker threads: a page is cut into one chunk per thread and the chunks run at
 * once, so post-processing uses every core it is given and the event loop that serves requests
 * only reads and writes the store. Threads start on first use and stay; each loads its own
 * language detector (about 190 MB), which is why the server runs one and `agora postprocess` one
 * per core.
 */
export class ThreadedRulesLayer implements RulesLayer {
  private workers: Worker[] | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (outputs: RulesOutput[]) => void; reject: (error: Error) => void }>();

  constructor(private readonly threads: number) {}

  async screen(conversations: readonly RulesInput[]): Promise<RulesOutput[]> {
    if (conversations.length === 0) return [];
    const workers = this.start();
    const size = Math.ceil(conversations.length / workers.length);
    const chunks = workers
      .map((worker, index) => ({ worker, conversations: conversations.slice(index * size, (index + 1) * size) }))
      .filter((chunk) => chunk.conversations.length > 0);
    const outputs = await Promise.all(
      chunks.map(
        ({ worker, conversations: chunk }) =>
          new Promise<RulesOutput[]>((resolve, reject) => {
            const id = this.nextId++;
            this.pending.set(id, { resolve, reject });
            worker.postMessage({ id, conversations: chunk } satisfies RulesRequest);
          }),
      ),
    );
    return outputs.flat();
  }

  async warmUp(): Promise<void> {
    // One input per thread: the page is cut into one chunk each, so every thread starts and loads.
    await this.screen(Array.from({ length: Math.max(1, this.threads) }, () => WARM_UP_INPUT));
  }

  async close(): Promise<void> {
    const workers = this.workers ?? [];
    this.workers = undefined;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private start(): Worker[] {
    if (this.workers) return this.workers;
    this.workers = Array.from({ length: Math.max(1, this.threads) }, () => {
      const worker = new Worker(new URL('./rules-layer-worker.mjs', import.meta.url), { execArgv: [] });
      worker.unref();
      worker.on('message', (reply: RulesReply) => {
        const waiting = this.pending.get(reply.id);
        this.pending.delete(reply.id);
        if ('error' in reply) waiting?.reject(new Error(`the rules layer failed: ${reply.error}`));
        else waiting?.resolve(reply.outputs);
      });
      worker.on('error', (error) => this.failAll(error));
      worker.on('exit', () => {
        // One thread gone: the pool starts again whole at the next page.
        const all = this.workers;
        this.workers = undefined;
        for (const other of all ?? []) if (other !== worker) void other.terminate();
        this.failAll(new Error('a rules layer thread stopped'));
      });
      return worker;
    });
    return this.workers;
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
