import type { ChatHistoryItem, Llama, LlamaChat, LlamaGrammar } from 'node-llama-cpp';
import { type ModelCallOptions, type ModelClient, type ModelStreamResult, ProviderCallError } from '../spec';
import type { LoadedLocalModel, LocalModelRuntime, LocalModelSettings } from './local-model-runtime';
import { PartQueue } from './part-queue';

/** Requests that may wait for each of a model's sequences before it answers "busy". */
const MAX_WAITING_PER_SEQUENCE = 4;

/** Temperature when the catalogue gives none: llama.cpp's greedy default repeats itself. */
const DEFAULT_TEMPERATURE = 0.7;

/**
 * A catalogue model run in this process by llama.cpp. Each call waits for a free sequence of the
 * shared model, generates with the chat template of the GGUF file (node-llama-cpp's wrapper for
 * it), streams thought segments as reasoning and the rest as the answer, and counts the tokens it
 * generated: the usage is exact. Stopping the reader aborts the generation and frees the sequence.
 */
export class LlamaCppModelClient implements ModelClient {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'llama-cpp';

  constructor(
    readonly modelId: string,
    private readonly runtime: LocalModelRuntime,
    private readonly settings: LocalModelSettings,
  ) {}

  async doStream(options: ModelCallOptions): Promise<ModelStreamResult> {
    const abort = new AbortController();
    const stop = () => abort.abort(options.abortSignal?.reason);
    if (options.abortSignal?.aborted) stop();
    options.abortSignal?.addEventListener('abort', stop, { once: true });
    const loaded = await this.load();
    // A local model is one machine's CPU: past a few waiting requests per sequence, say it is busy
    // (as a hosted API's 429 does) so that the duel takes another model instead of queueing for minutes.
    if (loaded.queue.pendingCount >= this.settings.parallel * MAX_WAITING_PER_SEQUENCE) {
      options.abortSignal?.removeEventListener('abort', stop);
      throw new ProviderCallError({
        kind: 'http_error',
        statusCode: 429,
        message: `local model ${this.modelId} is busy: ${loaded.queue.pendingCount} requests already wait for it`,
        isRetryable: true,
      });
    }
    const parts = new PartQueue(() => abort.abort());
    const fail = (error: unknown) => {
      parts.push({ type: 'error', error: localFailure(this.modelId, error) });
      parts.end();
    };
    void loaded
      .queue(async () => {
        if (abort.signal.aborted) return;
        await generate(loaded, options, abort.signal, parts);
      })
      .catch(fail)
      .finally(() => {
        options.abortSignal?.removeEventListener('abort', stop);
        parts.end();
      });
    return { stream: parts };
  }

  /** The shared model of the catalogue's file; a failed load is a connection error not worth another try. */
  private load(): Promise<LoadedLocalModel> {
    return this.runtime.load(this.settings).catch((error: unknown) => {
      throw new ProviderCallError({
        kind: 'connection_error',
        message: `local model ${this.modelId} could not be loaded from ${this.settings.path}: ${error instanceof Error ? error.message : String(error)}`,
        isRetryable: false,
        cause: error,
      });
    });
  }
}

/** One generation on a sequence of the shared model, which goes back to the model when it ends. */
async function generate(loaded: LoadedLocalModel, options: ModelCallOptions, signal: AbortSignal, parts: PartQueue): Promise<void> {
  const { LlamaChat, resolveChatWrapper } = await import('node-llama-cpp');
  // Structured output: llama.cpp samples only tokens that keep the answer inside the JSON Schema.
  const grammar = options.responseFormat ? await jsonGrammar(loaded.llama, options.responseFormat.schema) : undefined;
  const sequence = loaded.context.getSequence();
  try {
    const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: resolveChatWrapper(loaded.model) ?? undefined });
    try {
      await streamResponse(chat, options, grammar, signal, parts);
    } finally {
      chat.dispose({ disposeSequence: false });
    }
  } finally {
    // node-llama-cpp gives the sequence back once the context is free: the next request in the
    // queue may take it only then (freeing the queue's slot earlier made it fail "No sequences left").
    await sequence.dispose();
  }
}

/**
 * Streams one answer into `parts`, thought segments as reasoning and the rest as text, then its
 * finish with the tokens it generated, and ends the parts.
 */
async function streamResponse(
  chat: LlamaChat,
  options: ModelCallOptions,
  grammar: LlamaGrammar | undefined,
  signal: AbortSignal,
  parts: PartQueue,
): Promise<void> {
  let outputTokens = 0;
  let open: 'text' | 'reasoning' | undefined;
  const switchTo = (kind: 'text' | 'reasoning') => {
    if (open === kind) return;
    if (open) parts.push({ type: `${open}-end`, id: open });
    parts.push({ type: `${kind}-start`, id: kind });
    open = kind;
  };
  parts.push({ type: 'stream-start', warnings: [] });
  const result = await chat.generateResponse(history(options), {
    maxTokens: options.maxOutputTokens,
    temperature: options.temperature ?? DEFAULT_TEMPERATURE,
    topP: options.topP,
    seed: options.seed,
    ...(grammar ? { grammar } : {}),
    signal,
    stopOnAbortSignal: true,
    onResponseChunk: (chunk) => {
      outputTokens += chunk.tokens.length;
      if (chunk.text === '') return;
      const kind = chunk.type === 'segment' && chunk.segmentType === 'thought' ? 'reasoning' : 'text';
      switchTo(kind);
      parts.push({ type: `${kind}-delta`, id: kind, delta: chunk.text });
    },
  });
  if (open) parts.push({ type: `${open}-end`, id: open });
  parts.push({
    type: 'finish',
    finishReason: finishReason(result.metadata.stopReason),
    usage: { inputTokens: undefined, outputTokens, reasoningTokens: undefined },
  });
  parts.end();
}

/**
 * A grammar for a JSON Schema, or none when llama.cpp cannot express the schema (the caller then
 * validates the answer and asks again, as with a hosted model that ignores structured output).
 */
async function jsonGrammar(llama: Llama, schema: Record<string, unknown>): Promise<LlamaGrammar | undefined> {
  // The meta-schema URI is a note for validators, not a rule for the grammar.
  const { $schema: _meta, ...rules } = schema;
  try {
    return await llama.createGrammarForJsonSchema(rules as Parameters<Llama['createGrammarForJsonSchema']>[0]);
  } catch {
    return undefined;
  }
}

/** The port's messages as node-llama-cpp's chat history (the last one is the user's). */
function history(options: ModelCallOptions): ChatHistoryItem[] {
  return options.messages.map((message): ChatHistoryItem => {
    if (message.role === 'system') return { type: 'system', text: message.content };
    if (message.role === 'user') return { type: 'user', text: message.content };
    return { type: 'model', response: [message.content] };
  });
}

/** A failure of llama.cpp as the port's error: worth another try (or another model) like a hosted API's 5xx. */
function localFailure(modelId: string, error: unknown): ProviderCallError {
  if (ProviderCallError.isInstance(error)) return error;
  return new ProviderCallError({
    kind: 'connection_error',
    message: `local model ${modelId} failed: ${error instanceof Error ? error.message : String(error)}`,
    isRetryable: true,
    cause: error,
  });
}

/** node-llama-cpp's stop reasons as the port's finish reasons (OpenAI's words). */
function finishReason(stopReason: string): string {
  if (stopReason === 'maxTokens') return 'length';
  if (stopReason === 'abort') return 'other';
  return 'stop';
}
