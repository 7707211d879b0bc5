/**
 * The provider port: what the arena needs from an LLM vendor, modelled on the AI SDK's
 * `LanguageModelV3` and reduced to streaming chat. Retries, timeouts and the fan-out to the two
 * sides of a duel live in the services, never in adapters.
 */

/** One message of the conversation sent to a model. */
export interface ModelMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Options of one streaming call. */
export interface ModelCallOptions {
  /** The conversation so far, oldest first; the last message is the user's. */
  messages: ModelMessage[];
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  seed?: number;
  /**
   * Ask for one JSON value matching this JSON Schema instead of free text (pipeline calls such as
   * topic tagging; never used in duels). Sent as the vendor's structured-output setting.
   */
  responseFormat?: { type: 'json'; name: string; schema: Record<string, unknown> };
  /** Aborting it cancels the upstream HTTP request. */
  abortSignal?: AbortSignal;
  headers?: Record<string, string>;
  /** Vendor-specific settings passed through untouched (rule of three before a field becomes part of the spec). */
  providerOptions?: Record<string, Record<string, unknown>>;
}

/** Token counts as reported by the provider; any of them may be missing. */
export interface ModelUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  reasoningTokens: number | undefined;
}

/** The parts of a model's stream, in order: `stream-start`, text and reasoning parts, metadata, then `finish` or `error`. */
export type ModelStreamPart =
  | { type: 'stream-start'; warnings: unknown[] }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'reasoning-end'; id: string }
  | { type: 'response-metadata'; id?: string; modelId?: string; timestamp?: Date }
  | { type: 'finish'; finishReason: string; usage: ModelUsage }
  | { type: 'error'; error: unknown };

/** What a streaming call returns once the upstream answered with a success status. */
export interface ModelStreamResult {
  /**
   * The parts, in order. A reader that stops early calls `return()` (as `break` in `for await`
   * does): the call is cancelled and a pending `next()` ends at once, even if the upstream ignores
   * the cancellation.
   */
  stream: AsyncIterable<ModelStreamPart>;
  /** Response headers, logged as provider metadata. */
  response?: { headers?: Record<string, string> };
}

/**
 * What a client whose body arrives as events may offer beside the iterable: the parts handed to
 * `onPart` as they are mapped, in the same order and with the same meaning, without a promise and
 * a resumption of the reader per part (one per token per side: the arena's hottest path). `onEnd`
 * is called once, after the last part (`finish` or `error`), or with the abort's reason when the
 * call was aborted. The returned function stops listening and cancels the call, as `return()` does.
 */
export interface PushedParts {
  listen(onPart: (part: ModelStreamPart) => void, onEnd: (abortReason?: unknown) => void): () => void;
}

/** Whether a stream of parts can also be listened to (see {@link PushedParts}). */
export function hasPushedParts(stream: AsyncIterable<ModelStreamPart>): stream is AsyncIterable<ModelStreamPart> & PushedParts {
  return typeof (stream as Partial<PushedParts>).listen === 'function';
}

/** A web stream of parts as the port's iterable: `return()` cancels the stream, which ends a pending read at once. */
export function readerParts(stream: ReadableStream<ModelStreamPart>): AsyncIterable<ModelStreamPart> {
  return {
    [Symbol.asyncIterator]: () => {
      const reader = stream.getReader();
      return {
        next: () => reader.read() as Promise<IteratorResult<ModelStreamPart>>,
        return: async () => {
          await reader.cancel();
          return { value: undefined, done: true };
        },
      };
    },
  };
}

/** A model reachable through some vendor API. */
export interface ModelClient {
  readonly specificationVersion: 'v1';
  /** Provider name for logs and metrics (e.g. `openai-compatible`). */
  readonly provider: string;
  /** The vendor's model id. */
  readonly modelId: string;
  /** Starts a streaming call. Rejects with a {@link ProviderCallError} when the upstream refuses it. */
  doStream(options: ModelCallOptions): Promise<ModelStreamResult>;
}

const providerCallErrorMarker = Symbol.for('agora.provider-call-error');

/** The ways an upstream call can fail, as the arena records them per model. */
export type UpstreamErrorKind =
  | 'connection_error'
  | 'http_error'
  | 'first_token_timeout'
  | 'total_timeout'
  | 'empty_response'
  | 'malformed_stream'
  | 'stream_cut'
  | 'content_filter';

/** A failed upstream call, normalised across vendors. */
export class ProviderCallError extends Error {
  readonly [providerCallErrorMarker] = true;
  override readonly name = 'ProviderCallError';
  readonly kind: UpstreamErrorKind;
  readonly statusCode: number | undefined;
  readonly responseBody: string | undefined;
  /** True for connection errors, 408, 409, 429 and 5xx: the same call may succeed if tried again. */
  readonly isRetryable: boolean;
  /** How long the upstream asked to wait before trying again (its `Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(options: {
    kind: UpstreamErrorKind;
    message: string;
    statusCode?: number;
    responseBody?: string;
    isRetryable: boolean;
    retryAfterMs?: number | undefined;
    cause?: unknown;
  }) {
    super(options.message, { cause: options.cause });
    this.kind = options.kind;
    this.statusCode = options.statusCode;
    this.responseBody = options.responseBody;
    this.isRetryable = options.isRetryable;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** Recognises the error across module copies (marker-based, as the AI SDK does). */
  static isInstance(error: unknown): error is ProviderCallError {
    return typeof error === 'object' && error !== null && providerCallErrorMarker in error;
  }
}

/** HTTP statuses worth retrying. */
export function isRetryableStatus(statusCode: number): boolean {
  return statusCode === 408 || statusCode === 409 || statusCode === 429 || statusCode >= 500;
}

/**
 * A `Retry-After` header as milliseconds to wait: delay-seconds or an HTTP date (RFC 9110 §10.2.3);
 * undefined when absent or unreadable. Never negative.
 */
export function retryAfterMs(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its day and month; anything else Date.parse might accept ('1.5', '-5') is no date.
  const date = /^[A-Za-z]{3},/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
