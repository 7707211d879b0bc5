import { Readable } from 'node:stream';
import { ProviderCallError, type ModelStreamPart, type ModelUsage, type PushedParts, readerParts } from '../spec';
import { type ChatCompletionChunk, chatCompletionChunkSchema, isPlainChunk } from './openai-compatible-api-schemas';
import { splitContentParts } from './content-parts';
import { mapFinishReason } from './map-openai-compatible-finish-reason';
import { SseDataParser } from './parse-sse-events';

/**
 * Turns the SSE payloads of a chat-completion stream into model stream parts. Pure state machine:
 * `accept` one payload, `end` when the body ended. A body that ends before any finish reason or
 * `[DONE]` was cut; a payload that is not valid JSON, or not a chunk, is a malformed stream.
 */
export class ChatCompletionStreamMapper {
  private textStarted = false;
  private reasoningStarted = false;
  private finishReason: string | undefined;
  private usage: ModelUsage = { inputTokens: undefined, outputTokens: undefined, reasoningTokens: undefined };
  private done = false;
  private metadataSent = false;

  get isDone(): boolean {
    return this.done;
  }

  accept(payload: string, parts: ModelStreamPart[]): void {
    if (this.done) return;
    if (payload === '[DONE]') return this.finish(parts);
    const chunk = parseChunk(payload);
    if (chunk instanceof ProviderCallError) return this.fail(parts, chunk);
    const { choices, usage, error, id, model } = chunk;
    if (!this.metadataSent && (id || model)) {
      parts.push({ type: 'response-metadata', id: id ?? undefined, modelId: model ?? undefined });
      this.metadataSent = true;
    }
    if (error) return this.fail(parts, midStreamFailure(error));
    if (usage) {
      this.usage = {
        inputTokens: usage.prompt_tokens ?? undefined,
        outputTokens: usage.completion_tokens ?? undefined,
        reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? undefined,
      };
    }
    const choice = choices?.[0];
    this.pushDeltas(choice?.delta, parts);
    if (choice?.finish_reason) this.finishReason = choice.finish_reason;
  }

  /** A chunk's reasoning (its own field, or the thinking of typed content parts), then its text. */
  private pushDeltas(delta: ChunkDelta, parts: ModelStreamPart[]): void {
    const contentParts = Array.isArray(delta?.content) ? splitContentParts(delta.content) : undefined;
    const reasoning = (delta?.reasoning_content ?? delta?.reasoning ?? '') + (contentParts?.reasoning ?? '');
    if (reasoning) {
      if (!this.reasoningStarted) parts.push({ type: 'reasoning-start', id: 'reasoning-0' });
      this.reasoningStarted = true;
      parts.push({ type: 'reasoning-delta', id: 'reasoning-0', delta: reasoning });
    }
    const content = contentParts ? contentParts.text : delta?.content;
    if (typeof content === 'string' && content) {
      if (!this.textStarted) parts.push({ type: 'text-start', id: 'text-0' });
      this.textStarted = true;
      parts.push({ type: 'text-delta', id: 'text-0', delta: content });
    }
  }

  /** The body ended: finish if the upstream said it was done, otherwise the stream was cut. */
  end(parts: ModelStreamPart[]): void {
    if (this.done) return;
    if (this.finishReason !== undefined) return this.finish(parts);
    this.fail(
      parts,
      new ProviderCallError({ kind: 'stream_cut', message: 'upstream stream ended before its answer did', isRetryable: true }),
    );
  }

  private finish(parts: ModelStreamPart[]): void {
    if (this.reasoningStarted) parts.push({ type: 'reasoning-end', id: 'reasoning-0' });
    if (this.textStarted) parts.push({ type: 'text-end', id: 'text-0' });
    parts.push({ type: 'finish', finishReason: mapFinishReason(this.finishReason), usage: this.usage });
    this.done = true;
  }

  private fail(parts: ModelStreamPart[], error: ProviderCallError): void {
    parts.push({ type: 'error', error });
    this.done = true;
  }
}

type ChunkDelta = NonNullable<ChatCompletionChunk['choices']>[number]['delta'];

/** One SSE payload as a chunk, or the malformed-stream failure it is when it is not valid JSON or not a chunk. */
function parseChunk(payload: string): ChatCompletionChunk | ProviderCallError {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch (error) {
    return new ProviderCallError({
      kind: 'malformed_stream',
      message: 'upstream sent a malformed stream',
      isRetryable: false,
      cause: error,
    });
  }
  if (isPlainChunk(json)) return json;
  const chunk = chatCompletionChunkSchema.safeParse(json);
  if (!chunk.success)
    return new ProviderCallError({
      kind: 'malformed_stream',
      message: 'upstream sent an unexpected chunk',
      isRetryable: false,
      cause: chunk.error,
    });
  return chunk.data;
}

/** An error an upstream reported inside an already-started stream: retryable without a numeric code, or with a 5xx or 429. */
function midStreamFailure(error: NonNullable<ChatCompletionChunk['error']>): ProviderCallError {
  const statusCode = typeof error.code === 'number' ? error.code : undefined;
  return new ProviderCallError({
    kind: 'http_error',
    message: `upstream failed mid-stream${statusCode ? ` (${statusCode})` : ''}`,
    statusCode,
    responseBody: error.message ?? undefined,
    isRetryable: statusCode === undefined || statusCode >= 500 || statusCode === 429,
  });
}

const interrupted = (cause?: unknown) =>
  new ProviderCallError({ kind: 'stream_cut', message: 'upstream stream was interrupted', isRetryable: true, cause });

/** The parts of a chat-completion response body, in order; read errors become a final `error` part. */
export function chatCompletionParts(body: AsyncIterable<Uint8Array>, abortSignal: AbortSignal | undefined): AsyncIterable<ModelStreamPart> {
  if (!(body instanceof Readable)) return readerParts(partsOfBody(body, abortSignal));
  const parts: AsyncIterable<ModelStreamPart> & PushedParts = {
    [Symbol.asyncIterator]: () => new NodeBodyParts(body, abortSignal),
    listen: (onPart, onEnd) => new NodeBodyParts(body, abortSignal).listen(onPart, onEnd),
  };
  return parts;
}

/** How many mapped parts may wait unread before the body is paused. */
const QUEUED_PARTS_LIMIT = 64;

/**
 * The same, for Node's HTTP client, which is the arena's hot path (one chunk per token per side):
 * the body's chunks are mapped as they arrive ('data' events, no promise per chunk) into a plain
 * queue that the reader takes from, without the bookkeeping of a web stream. Once the answer is
 * complete the rest of the body is read to its end, so that the connection goes back to the
 * keep-alive pool. `return()` (the reader giving up) ends a pending `next()` at once.
 */
class NodeBodyParts implements AsyncIterator<ModelStreamPart> {
  private readonly events = new SseDataParser();
  private readonly mapper = new ChatCompletionStreamMapper();
  private readonly queue: ModelStreamPart[] = [{ type: 'stream-start', warnings: [] }];
  private head = 0;
  /** No part will be added: the answer is complete, failed, or the reader gave up. */
  private settled = false;
  /** Why reading stopped when the call was aborted: `next()` rejects with it once the queue is empty. */
  /** The caller's abort reason, passed on as it is (an AbortError unless the caller chose its own Error). */
  private abortReason: { reason: Error } | undefined;
  private waiting: { resolve: (result: IteratorResult<ModelStreamPart>) => void; reject: (error: unknown) => void } | undefined;
  /** The listener of {@link listen}: parts go to it as they are mapped, instead of to `next()`. */
  private listener: { onPart: (part: ModelStreamPart) => void; onEnd: (abortReason?: unknown) => void } | undefined;

  constructor(
    private readonly body: Readable,
    private readonly abortSignal: AbortSignal | undefined,
  ) {
    body.setEncoding('utf8');
    body.on('data', (text: string) => {
      if (this.settled) return;
      const parts: ModelStreamPart[] = [];
      for (const payload of this.events.push(text)) this.mapper.accept(payload, parts);
      this.add(parts);
    });
    body.once('end', () => {
      if (this.settled) return;
      const parts: ModelStreamPart[] = [];
      this.mapper.end(parts);
      this.add(parts);
    });
    body.once('error', (error) => this.fail(error));
    body.once('close', () => this.fail(undefined));
  }

  next(): Promise<IteratorResult<ModelStreamPart>> {
    if (this.head < this.queue.length) return Promise.resolve({ value: this.shift(), done: false });
    if (this.abortReason) return Promise.reject(this.abortReason.reason);
    if (this.settled) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  /** The oldest queued part; the body resumes once the queue is empty. */
  private shift(): ModelStreamPart {
    const value = this.queue[this.head]!;
    this.head += 1;
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
      if (!this.settled && this.body.isPaused()) this.body.resume();
    }
    return value;
  }

  /** The parts to `onPart` as they come, then `onEnd` (see {@link PushedParts}); the returned function is `return()`. */
  listen(onPart: (part: ModelStreamPart) => void, onEnd: (abortReason?: unknown) => void): () => void {
    this.listener = { onPart, onEnd };
    this.deliver();
    return () => void this.return();
  }

  return(): Promise<IteratorResult<ModelStreamPart>> {
    this.listener = undefined;
    if (!this.settled) {
      this.settled = true;
      this.body.destroy();
    }
    this.queue.length = 0;
    this.head = 0;
    this.wake();
    return Promise.resolve({ value: undefined, done: true });
  }

  private add(parts: ModelStreamPart[]): void {
    if (parts.length === 0) return;
    const failed = parts.some((part) => part.type === 'error');
    for (const part of parts) this.queue.push(part);
    if (this.mapper.isDone || failed) {
      this.settled = true;
      if (failed) this.body.destroy();
      else this.drainThenRelease();
    } else if (this.queue.length - this.head >= QUEUED_PARTS_LIMIT) this.body.pause();
    this.wake();
  }

  private fail(error: unknown): void {
    if (this.settled) return;
    if (this.abortSignal?.aborted) {
      this.settled = true;
      this.abortReason = { reason: this.abortSignal.reason as Error };
      this.wake();
      return;
    }
    this.add([{ type: 'error', error: interrupted(error) }]);
  }

  /**
   * Hands the reader waiting in `next()` what there is now: a part, the end, or the abort. Settles
   * its promise directly (not through another `next()`): two promises less per token.
   */
  private wake(): void {
    if (this.listener) return this.deliver();
    const waiting = this.waiting;
    if (waiting === undefined) return;
    this.waiting = undefined;
    if (this.head < this.queue.length) waiting.resolve({ value: this.shift(), done: false });
    else if (this.abortReason) waiting.reject(this.abortReason.reason);
    else if (this.settled) waiting.resolve({ value: undefined, done: true });
    else this.waiting = waiting;
  }

  /** Hands the listener every queued part, then the end once reading stopped. */
  private deliver(): void {
    while (this.listener && this.head < this.queue.length) this.listener.onPart(this.shift());
    const listener = this.listener;
    if (listener === undefined || !this.settled) return;
    this.listener = undefined;
    if (this.abortReason) listener.onEnd(this.abortReason.reason);
    else listener.onEnd();
  }

  private drainThenRelease(): void {
    const { body } = this;
    body.resume();
    if (body.readableEnded || body.destroyed) return;
    // An upstream that never ends its body after the answer does not keep the socket for ever.
    const timer = setTimeout(() => body.destroy(), 5000);
    body.once('close', () => clearTimeout(timer));
  }
}

function partsOfBody(body: AsyncIterable<Uint8Array>, abortSignal: AbortSignal | undefined): ReadableStream<ModelStreamPart> {
  const chunks = body[Symbol.asyncIterator]();
  const decoder = new TextDecoder();
  const events = new SseDataParser();
  const mapper = new ChatCompletionStreamMapper();
  const release = () => void chunks.return?.().catch(() => {});
  return new ReadableStream<ModelStreamPart>({
    start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] });
    },
    async pull(controller) {
      const parts: ModelStreamPart[] = [];
      try {
        while (parts.length === 0 && !mapper.isDone) {
          const chunk = await chunks.next();
          if (chunk.done) mapper.end(parts);
          else for (const payload of events.push(decoder.decode(chunk.value, { stream: true }))) mapper.accept(payload, parts);
        }
      } catch (error) {
        if (abortSignal?.aborted) return controller.error(abortSignal.reason);
        parts.push({ type: 'error', error: interrupted(error) });
      }
      for (const part of parts) controller.enqueue(part);
      if (mapper.isDone || parts.some((part) => part.type === 'error')) {
        controller.close();
        release();
      }
    },
    cancel() {
      release();
    },
  });
}
