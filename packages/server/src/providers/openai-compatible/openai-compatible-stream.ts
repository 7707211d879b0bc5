import { Readable } from 'node:stream';
import { ProviderCallError, type ModelStreamPart, type ModelUsage } from '../spec';
import { chatCompletionChunkSchema } from './openai-compatible-api-schemas';
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
    let json: unknown;
    try {
      json = JSON.parse(payload);
    } catch (error) {
      return this.fail(parts, new ProviderCallError({ kind: 'malformed_stream', message: 'upstream sent a malformed stream', isRetryable: false, cause: error }));
    }
    const chunk = chatCompletionChunkSchema.safeParse(json);
    if (!chunk.success) return this.fail(parts, new ProviderCallError({ kind: 'malformed_stream', message: 'upstream sent an unexpected chunk', isRetryable: false, cause: chunk.error }));
    const { choices, usage, error, id, model } = chunk.data;
    if (!this.metadataSent && (id || model)) {
      parts.push({ type: 'response-metadata', id: id ?? undefined, modelId: model ?? undefined });
      this.metadataSent = true;
    }
    if (error) {
      const statusCode = typeof error.code === 'number' ? error.code : undefined;
      return this.fail(parts, new ProviderCallError({ kind: 'http_error', message: `upstream failed mid-stream${statusCode ? ` (${statusCode})` : ''}`, statusCode, responseBody: error.message ?? undefined, isRetryable: statusCode === undefined || statusCode >= 500 || statusCode === 429 }));
    }
    if (usage) {
      this.usage = { inputTokens: usage.prompt_tokens ?? undefined, outputTokens: usage.completion_tokens ?? undefined, reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? undefined };
    }
    const choice = choices?.[0];
    const reasoning = choice?.delta?.reasoning_content ?? choice?.delta?.reasoning;
    if (reasoning) {
      if (!this.reasoningStarted) parts.push({ type: 'reasoning-start', id: 'reasoning-0' });
      this.reasoningStarted = true;
      parts.push({ type: 'reasoning-delta', id: 'reasoning-0', delta: reasoning });
    }
    const content = choice?.delta?.content;
    if (content) {
      if (!this.textStarted) parts.push({ type: 'text-start', id: 'text-0' });
      this.textStarted = true;
      parts.push({ type: 'text-delta', id: 'text-0', delta: content });
    }
    if (choice?.finish_reason) this.finishReason = choice.finish_reason;
  }

  /** The body ended: finish if the upstream said it was done, otherwise the stream was cut. */
  end(parts: ModelStreamPart[]): void {
    if (this.done) return;
    if (this.finishReason !== undefined) return this.finish(parts);
    this.fail(parts, new ProviderCallError({ kind: 'stream_cut', message: 'upstream stream ended before its answer did', isRetryable: true }));
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

const interrupted = (cause?: unknown) => new ProviderCallError({ kind: 'stream_cut', message: 'upstream stream was interrupted', isRetryable: true, cause });

/** The parts of a chat-completion response body, as a stream; read errors become a final `error` part. */
export function chatCompletionParts(body: AsyncIterable<Uint8Array>, abortSignal: AbortSignal | undefined): ReadableStream<ModelStreamPart> {
  return body instanceof Readable ? partsOfNodeBody(body, abortSignal) : partsOfBody(body, abortSignal);
}

/**
 * The same, for Node's HTTP client: the body's chunks are mapped as they arrive ('data' events, no
 * promise per chunk), and the parts of one chunk are queued at once. Once the answer is complete the
 * rest of the body is read to its end, so that the connection goes back to the keep-alive pool.
 */
function partsOfNodeBody(body: Readable, abortSignal: AbortSignal | undefined): ReadableStream<ModelStreamPart> {
  const events = new SseDataParser();
  const mapper = new ChatCompletionStreamMapper();
  const parts: ModelStreamPart[] = [];
  let settled = false;
  const drainThenRelease = () => {
    body.resume();
    if (body.readableEnded || body.destroyed) return;
    // An upstream that never ends its body after the answer does not keep the socket for ever.
    const timer = setTimeout(() => body.destroy(), 5000);
    body.once('close', () => clearTimeout(timer));
  };
  return new ReadableStream<ModelStreamPart>(
    {
      start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        const flush = () => {
          if (parts.length === 0) return;
          const failed = parts.some((part) => part.type === 'error');
          for (const part of parts) controller.enqueue(part);
          parts.length = 0;
          if (mapper.isDone || failed) {
            settled = true;
            controller.close();
            if (failed) body.destroy();
            else drainThenRelease();
          } else if ((controller.desiredSize ?? 1) <= 0) body.pause();
        };
        const fail = (error: unknown) => {
          if (settled) return;
          if (abortSignal?.aborted) {
            settled = true;
            controller.error(abortSignal.reason);
            return;
          }
          parts.push({ type: 'error', error: interrupted(error) });
          flush();
        };
        body.setEncoding('utf8');
        body.on('data', (text: string) => {
          if (settled) return;
          for (const payload of events.push(text)) mapper.accept(payload, parts);
          flush();
        });
        body.once('end', () => {
          if (settled) return;
          mapper.end(parts);
          flush();
        });
        body.once('error', fail);
        body.once('close', () => fail(undefined));
      },
      pull() {
        if (!settled && body.isPaused()) body.resume();
      },
      cancel() {
        settled = true;
        body.destroy();
      },
    },
    { highWaterMark: 64 },
  );
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
          const { done, value } = await chunks.next();
          if (done) mapper.end(parts);
          else for (const payload of events.push(decoder.decode(value, { stream: true }))) mapper.accept(payload, parts);
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
