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

/** The parts of a chat-completion response body, as a stream; read errors become a final `error` part. */
export function chatCompletionParts(body: AsyncIterable<Uint8Array>, abortSignal: AbortSignal | undefined): ReadableStream<ModelStreamPart> {
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
        parts.push({ type: 'error', error: new ProviderCallError({ kind: 'stream_cut', message: 'upstream stream was interrupted', isRetryable: true, cause: error }) });
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
