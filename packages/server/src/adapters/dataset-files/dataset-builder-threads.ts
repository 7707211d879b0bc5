import { Worker } from 'node:worker_threads';
import type { ExportableConversation } from '../../domain/datasets/exportable';
import { type BuiltFile, DatasetBuilder, type DatasetBuilderSettings } from './dataset-builder';
import type { BuilderReply, BuilderRequest } from './dataset-builder-worker';

/** Where batches of exportable conversations go: builders in this thread or in worker threads. */
export interface BatchSink {
  /** Resolves once the batch is written: at most one batch is in flight. */
  add(batch: ExportableConversation[]): Promise<void>;
  finish(): Promise<BuiltFile[]>;
  /** Stops the threads (after an error); harmless after finish. */
  close(): Promise<void>;
}

export function inlineBuilders(settings: DatasetBuilderSettings): BatchSink {
  const builder = new DatasetBuilder(settings);
  return {
    add: async (batch) => builder.add(batch),
    finish: async () => builder.finish(),
    close: async () => {},
  };
}

/**
 * One worker thread per group of datasets: while they encode a batch, the export reads the next
 * one from the store, so the database, the raw subsets and the training subsets use the cores
 * side by side. Files and bytes are the same as with inline builders.
 */
export function threadedBuilders(groups: readonly DatasetBuilderSettings[]): BatchSink {
  const threads = groups.map((settings) => new BuilderThread(settings));
  return {
    add: async (batch) => {
      await Promise.all(threads.map((thread) => thread.request({ type: 'batch', batch })));
    },
    finish: async () => {
      const replies = await Promise.all(threads.map((thread) => thread.request({ type: 'finish' })));
      await Promise.all(threads.map((thread) => thread.close()));
      // Group order, then the builder's own order: the same list as one inline builder gives.
      return replies.flatMap((reply) => (reply.type === 'finished' ? reply.files : []));
    },
    close: async () => {
      await Promise.all(threads.map((thread) => thread.close()));
    },
  };
}

class BuilderThread {
  private readonly worker: Worker;
  private waiting: { resolve: (reply: BuilderReply) => void; reject: (error: Error) => void } | undefined;
  private failure: Error | undefined;

  constructor(settings: DatasetBuilderSettings) {
    // The entry registers the TypeScript loader itself (see dataset-builder-worker.mjs).
    this.worker = new Worker(new URL('./dataset-builder-worker.mjs', import.meta.url), { workerData: settings, execArgv: [] });
    this.worker.on('message', (reply: BuilderReply) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      if (reply.type === 'error') waiting?.reject(new Error(`dataset builder failed: ${reply.message}`));
      else waiting?.resolve(reply);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the dataset builder thread stopped (exit code ${code})`)));
  }

  request(request: BuilderRequest): Promise<BuilderReply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.waiting?.reject(error);
    this.waiting = undefined;
  }
}
