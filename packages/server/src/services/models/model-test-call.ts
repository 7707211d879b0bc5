import type { ModelTestResult } from '@agora/contract';
import type { ModelCallOptions as CatalogueCallOptions } from '../../config/catalogue';
import { ProviderCallError, type ModelClient } from '../../providers/spec';

/** The test prompt when the operator gives none: short, answerable in any language. */
export const DEFAULT_TEST_PROMPT = 'Say hello in one short sentence.';
/** The answer's first characters the console shows; the call stops reading there. */
const SHOWN_CHARACTERS = 200;
/** A test call waits no longer than this, whatever the model's own timeouts (the console is waiting). */
const TEST_TIMEOUT_MS = 30_000;

/**
 * One short call to a model, as a duel's turn makes it (its system prompt and temperature):
 * the answer's first characters, the time to its first token and in all, or the error in words.
 */
export async function testCall(
  client: ModelClient,
  options: CatalogueCallOptions,
  prompt: string | undefined,
  clock: () => number,
): Promise<ModelTestResult> {
  const controller = new AbortController();
  const firstTokenMs = Math.min(options.firstTokenTimeoutMs, TEST_TIMEOUT_MS);
  const totalMs = Math.min(options.totalTimeoutMs, TEST_TIMEOUT_MS);
  const startedAt = clock();
  let ttftMs: number | null = null;
  let text = '';
  const timeout = (kind: string, ms: number) =>
    setTimeout(
      () =>
        controller.abort(
          new ProviderCallError({ kind: kind as 'total_timeout', message: `no answer within ${ms} ms`, isRetryable: false }),
        ),
      ms,
    );
  const firstTokenTimer = timeout('first_token_timeout', firstTokenMs);
  const totalTimer = timeout('total_timeout', totalMs);
  const elapsed = () => Math.round(clock() - startedAt);
  try {
    const messages = [
      ...(options.systemPrompt ? [{ role: 'system' as const, content: options.systemPrompt }] : []),
      { role: 'user' as const, content: prompt ?? DEFAULT_TEST_PROMPT },
    ];
    const result = await client.doStream({
      messages,
      maxOutputTokens: 64,
      temperature: options.temperature,
      abortSignal: controller.signal,
    });
    for await (const part of result.stream) {
      if (part.type === 'error') throw part.error;
      if (part.type !== 'text-delta' || part.delta === '') continue;
      if (ttftMs === null) {
        ttftMs = elapsed();
        clearTimeout(firstTokenTimer);
      }
      text += part.delta;
      if (text.length >= SHOWN_CHARACTERS) break;
    }
    if (controller.signal.aborted) throw controller.signal.reason;
    if (text.trim() === '') return failed('empty_response', 'the model answered nothing', ttftMs, elapsed());
    return { ok: true, text: text.slice(0, SHOWN_CHARACTERS), ttft_ms: ttftMs, total_ms: elapsed(), error: null };
  } catch (error) {
    const reason: unknown = controller.signal.aborted ? controller.signal.reason : error;
    if (ProviderCallError.isInstance(reason)) return failed(reason.kind, reason.message, ttftMs, elapsed(), text);
    return failed('connection_error', reason instanceof Error ? reason.message : String(reason), ttftMs, elapsed(), text);
  } finally {
    clearTimeout(firstTokenTimer);
    clearTimeout(totalTimer);
    controller.abort();
  }
}

function failed(kind: string, message: string, ttftMs: number | null, totalMs: number, text = ''): ModelTestResult {
  return {
    ok: false,
    text: text.slice(0, SHOWN_CHARACTERS),
    ttft_ms: ttftMs,
    total_ms: totalMs,
    error: { kind, message: message.slice(0, 500) },
  };
}
