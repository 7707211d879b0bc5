import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { ModelStreamPart } from '../spec';
import { mapStreamError } from './map-ai-sdk-error';

/** One AI SDK stream part as ours, or null for parts the arena does not use (tools, files, raw chunks). */
export function mapStreamPart(part: LanguageModelV3StreamPart): ModelStreamPart | null {
  switch (part.type) {
    case 'stream-start':
      return { type: 'stream-start', warnings: part.warnings };
    case 'text-start':
    case 'text-end':
    case 'reasoning-start':
    case 'reasoning-end':
      return { type: part.type, id: part.id };
    case 'text-delta':
    case 'reasoning-delta':
      return { type: part.type, id: part.id, delta: part.delta };
    case 'response-metadata':
      return { type: 'response-metadata', id: part.id, modelId: part.modelId, timestamp: part.timestamp };
    case 'finish':
      return {
        type: 'finish',
        finishReason: part.finishReason.unified,
        usage: {
          inputTokens: part.usage.inputTokens.total,
          outputTokens: part.usage.outputTokens.total,
          reasoningTokens: part.usage.outputTokens.reasoning,
        },
      };
    case 'error':
      return { type: 'error', error: mapStreamError(part.error) };
    default:
      return null;
  }
}

/**
 * Wraps the AI SDK stream: maps each part, and turns a broken body (a cut connection) into a
 * final `error` part instead of a rejected read, so that consumers see one failure path.
 */
export function mapAiSdkStream(source: ReadableStream<LanguageModelV3StreamPart>): ReadableStream<ModelStreamPart> {
  const reader = source.getReader();
  return new ReadableStream<ModelStreamPart>({
    async pull(controller) {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          const part = mapStreamPart(value);
          if (part) return controller.enqueue(part);
        }
      } catch (error) {
        controller.enqueue({ type: 'error', error: mapStreamError(error) });
        controller.close();
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
