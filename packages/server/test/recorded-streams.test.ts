import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AiSdkModelClient } from '../src/providers/ai-sdk/ai-sdk-model';
import { OpenAiCompatibleModelClient } from '../src/providers/openai-compatible/openai-compatible-model';
import type { ModelClient, ModelStreamPart } from '../src/providers/spec';

/** Replays a recorded vendor stream through an injected fetch, in small pieces that split lines anywhere. */
function replay(fixture: string): typeof fetch {
  const bytes = new TextEncoder().encode(readFileSync(new URL(`./fixtures/${fixture}`, import.meta.url), 'utf8'));
  return async () =>
    new Response(
      new ReadableStream({
        start(controller) {
          for (let offset = 0; offset < bytes.length; offset += 37) controller.enqueue(bytes.slice(offset, offset + 37));
          controller.close();
        },
      }),
      { status: 200, headers: { 'content-type': 'text/event-stream' } },
    );
}

async function collect(client: ModelClient): Promise<ModelStreamPart[]> {
  const { stream } = await client.doStream({ messages: [{ role: 'user', content: 'Bonjour' }] });
  const parts: ModelStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe.each([
  [
    'direct client',
    (replayed: typeof globalThis.fetch) =>
      new OpenAiCompatibleModelClient({ baseUrl: 'http://recorded.invalid/api/v1', model: 'deepseek/deepseek-r1-0528', fetch: replayed }),
  ],
  [
    'AI SDK client',
    (replayed: typeof globalThis.fetch) =>
      new AiSdkModelClient({
        type: 'openai-compatible',
        baseUrl: 'http://recorded.invalid/api/v1',
        model: 'deepseek/deepseek-r1-0528',
        fetch: replayed,
      }),
  ],
] as const)('a recorded OpenRouter stream through the %s', (_name, create) => {
  it('keeps comments out, separates reasoning from text and reads the usage sent after the finish', async () => {
    const parts = await collect(create(replay('openrouter/reasoning-with-usage.chunks.txt')));
    const text = parts
      .filter((part) => part.type === 'text-delta')
      .map((part) => (part as { delta: string }).delta)
      .join('');
    const reasoning = parts
      .filter((part) => part.type === 'reasoning-delta')
      .map((part) => (part as { delta: string }).delta)
      .join('');
    expect(text).toBe('Bonjour !');
    expect(reasoning).toBe('Le client dit bonjour.');
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop', usage: { outputTokens: 14 } });
  });
});

describe.each([
  [
    'direct client',
    (replayed: typeof globalThis.fetch) =>
      new OpenAiCompatibleModelClient({ baseUrl: 'http://recorded.invalid/v1', model: 'magistral-medium-latest', fetch: replayed }),
  ],
  [
    'AI SDK client',
    (replayed: typeof globalThis.fetch) =>
      new AiSdkModelClient({
        type: 'openai-compatible',
        baseUrl: 'http://recorded.invalid/v1',
        model: 'magistral-medium-latest',
        fetch: replayed,
      }),
  ],
] as const)('a Mistral reasoning stream (typed content parts) through the %s', (_name, create) => {
  it('streams the thinking parts as reasoning and the text parts as the answer, apart, with the usage', async () => {
    const parts = await collect(create(replay('mistral/magistral-thinking.chunks.txt')));
    const joined = (type: string) =>
      parts
        .filter((part) => part.type === type)
        .map((part) => (part as { delta: string }).delta)
        .join('');
    expect(joined('reasoning-delta')).toBe('La personne dit bonjour en français ; je réponds poliment.');
    expect(joined('text-delta')).toBe('Bonjour ! Comment puis-je vous aider ?');
    // The reasoning comes first, and no reasoning text leaks into the answer.
    const firstText = parts.findIndex((part) => part.type === 'text-delta');
    const lastReasoning = parts.findLastIndex((part) => part.type === 'reasoning-delta');
    expect(lastReasoning).toBeLessThan(firstText);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop', usage: { outputTokens: 31 } });
  });
});
