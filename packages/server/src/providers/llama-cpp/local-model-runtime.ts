import { availableParallelism } from 'node:os';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Llama, LlamaContext, LlamaModel } from 'node-llama-cpp';

/** How one local model runs: its file and the resources it may take. */
export interface LocalModelSettings {
  /** The GGUF file, resolved. */
  path: string;
  /** Tokens of context per sequence; capped by what the model was trained on. */
  contextSize: number;
  /** Requests generated at once, each on its own context sequence. */
  parallel: number;
  /** CPU threads of generation. */
  threads: number;
}

/** A model loaded once and shared: its context holds one sequence per parallel request. */
export interface LoadedLocalModel {
  model: LlamaModel;
  context: LlamaContext;
  /** The binding the model was loaded by (grammars for structured output are made by it). */
  llama: Llama;
  /** Runs a generation when a sequence is free; the others wait in order. */
  queue: LimitFunction;
}

export const DEFAULT_CONTEXT_SIZE = 4096;
export const DEFAULT_PARALLEL = 2;

/** Generation threads by default: the cores but one, so that the server's event loop keeps one. */
export const defaultThreads = (): number => Math.max(1, availableParallelism() - 1);

let sharedLlama: Promise<Llama> | undefined;

/**
 * The process's one llama.cpp binding, loaded on first use and kept until the process exits
 * (node-llama-cpp disposes it then). One, not one per runtime: each `getLlama` first runs the
 * binary in a child process to test it, 5 to 6 s on a loaded 2-core machine, and the binding's
 * backend is process-wide anyway. A failed load is forgotten so that a later call tries again.
 */
function processLlama(): Promise<Llama> {
  if (sharedLlama === undefined) {
    const loading = import('node-llama-cpp').then(({ getLlama, LlamaLogLevel }) =>
      // The prebuilt CPU binding from the npm package: never a build or a download at run time.
      getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error }),
    );
    sharedLlama = loading;
    loading.catch(() => {
      if (sharedLlama === loading) sharedLlama = undefined;
    });
  }
  return sharedLlama;
}

/**
 * llama.cpp in this process (node-llama-cpp with its prebuilt CPU binding): the binding is loaded
 * on first use, each model file once, whatever the number of catalogue entries that name it.
 */
export class LocalModelRuntime {
  private readonly models = new Map<string, Promise<LoadedLocalModel>>();
  private readonly queues = new Set<LimitFunction>();

  /** Generations running now, all models together (the rest wait for a sequence). */
  activeGenerations(): number {
    let active = 0;
    for (const queue of this.queues) active += queue.activeCount;
    return active;
  }

  /** Generations waiting for a free sequence. */
  waitingGenerations(): number {
    let waiting = 0;
    for (const queue of this.queues) waiting += queue.pendingCount;
    return waiting;
  }

  /** The model of a file, loaded on the first call; a failed load is forgotten so that a later call tries again. */
  load(settings: LocalModelSettings): Promise<LoadedLocalModel> {
    const key = `${settings.path}\0${settings.contextSize}\0${settings.parallel}\0${settings.threads}`;
    let loaded = this.models.get(key);
    if (loaded === undefined) {
      loaded = this.loadModel(settings);
      this.models.set(key, loaded);
      loaded.catch(() => this.models.delete(key));
    }
    return loaded;
  }

  /** Frees every model (server shutdown, tests); the binding stays with the process ({@link processLlama}). */
  async close(): Promise<void> {
    const models = [...this.models.values()];
    this.models.clear();
    this.queues.clear();
    for (const loaded of models) {
      const model = await loaded.catch(() => undefined);
      await model?.context.dispose();
      await model?.model.dispose();
    }
  }

  private async loadModel(settings: LocalModelSettings): Promise<LoadedLocalModel> {
    const llama = await processLlama();
    const model = await llama.loadModel({ modelPath: settings.path });
    try {
      const context = await model.createContext({
        contextSize: Math.min(settings.contextSize, model.trainContextSize),
        sequences: settings.parallel,
        threads: settings.threads,
      });
      const queue = pLimit(settings.parallel);
      this.queues.add(queue);
      return { model, context, llama, queue };
    } catch (error) {
      await model.dispose();
      throw error;
    }
  }
}
