import { type ModelCallOptions, type ModelClient, type ModelUsage, ProviderCallError } from './spec';

/** A whole answer of a pipeline call (topic tagging, screening, later the optimised set). */
export interface ModelCompletion {
  text: string;
  finishReason: string;
  usage: ModelUsage | undefined;
}

/**
 * Calls a model and waits for its whole answer. Pipeline calls are not streamed to anyone, so one
 * total timeout bounds them; it cancels the upstream request. Failures come out as
 * {@link ProviderCallError}, like in duels, so callers decide on retries from `isRetryable`.
 */
export async function completeModelCall(
  client: ModelClient,
  options: Omit<ModelCallOptions, 'abortSignal'>,
  totalTimeoutMs: number,
): Promise<ModelCompletion> {
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new ProviderCallError({ kind: 'total_timeout', message: `no complete answer within ${totalTimeoutMs} ms`, isRetryable: true }),
      ),
    totalTimeoutMs,
  );
  try {
    const result = await client.doStream({ ...options, abortSignal: controller.signal });
    let text = '';
    for await (const part of result.stream) {
      if (part.type === 'text-delta') text += part.delta;
      else if (part.type === 'error') throw part.error;
      else if (part.type === 'finish') return { text, finishReason: part.finishReason, usage: part.usage };
    }
    throw new ProviderCallError({ kind: 'stream_cut', message: 'the stream ended without a finish', isRetryable: true });
  } catch (error) {
    if (controller.signal.aborted && ProviderCallError.isInstance(controller.signal.reason)) throw controller.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
