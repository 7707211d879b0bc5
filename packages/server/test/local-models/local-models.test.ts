import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getLlama, LlamaChat, LlamaLogLevel, resolveChatWrapper } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type CatalogueModel, parseCatalogue } from '../../src/config/catalogue';
import { DIALECTS } from '../test-db';
import { TEST_MODELS, type TestArena, startTestArena, streamedText, testCatalogueYaml, until } from '../test-arena';
import { localModelYaml, writeTinyGguf } from './tiny-gguf';

/**
 * Whole duels through the real llama.cpp (node-llama-cpp's prebuilt binding) on tiny GGUF models
 * the test writes itself: nothing is downloaded and nothing is faked between the arena and llama.cpp.
 */
const folder = mkdtempSync(join(tmpdir(), 'agora-local-models-'));
const MAX_TOKENS = 24;
const PROMPT = 'Bonjour, qui es-tu ?';

const localEntry = (id: string, file: string, settings: { parallel: number; maxTokens: number }) =>
  localModelYaml(id, join(folder, file), { name: `Tiny ${id}`, parallel: settings.parallel, maxTokens: settings.maxTokens });

const catalogue = (baseUrl: string) =>
  parseCatalogue(
    testCatalogueYaml(baseUrl) +
      localEntry('tiny-a', 'tiny-a.gguf', { parallel: 2, maxTokens: MAX_TOKENS }) +
      localEntry('tiny-b', 'tiny-b.gguf', { parallel: 1, maxTokens: MAX_TOKENS }) +
      localEntry('tiny-long', 'tiny-a.gguf', { parallel: 1, maxTokens: 100_000 }),
    join(folder, 'models.yaml'),
    {},
  );

/** What node-llama-cpp gives for the prompt when called directly: the yardstick of the arena's answer. */
async function direct(file: string): Promise<{ text: string; tokens: number }> {
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath: join(folder, file) });
  const context = await model.createContext({ contextSize: 1024, threads: 1 });
  const chat = new LlamaChat({ contextSequence: context.getSequence(), chatWrapper: resolveChatWrapper(model) ?? undefined });
  let tokens = 0;
  const result = await chat.generateResponse([{ type: 'user', text: PROMPT }], {
    maxTokens: MAX_TOKENS,
    temperature: 0,
    onResponseChunk: (chunk) => {
      tokens += chunk.tokens.length;
    },
  });
  await context.dispose();
  await model.dispose();
  await llama.dispose();
  return { text: result.response, tokens };
}

let expected: Record<'tiny-a' | 'tiny-b', { text: string; tokens: number }>;

beforeAll(async () => {
  writeTinyGguf(join(folder, 'tiny-a.gguf'), { seed: 7, name: 'Tiny A' });
  writeTinyGguf(join(folder, 'tiny-b.gguf'), { seed: 8, name: 'Tiny B' });
  expected = { 'tiny-a': await direct('tiny-a.gguf'), 'tiny-b': await direct('tiny-b.gguf') };
}, 60_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.each(DIALECTS)('local models through llama.cpp ($name)', (dialect) => {
  let harness: TestArena;

  beforeAll(async () => {
    harness = await startTestArena(dialect, { catalogue, environment: { AGORA_UPSTREAM_RETRIES: '0' } });
  }, 60_000);
  afterAll(async () => harness?.close());

  it('streams a whole duel, with the answer and the exact token count llama.cpp gives when called directly', async () => {
    const { client } = harness;
    const created = await client.request('POST', '/api/v1/duels', { prompt: PROMPT, mode: 'custom', models: ['tiny-a', 'tiny-b'] });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = created.json.id as string;
    const frames = await client.stream(id);
    expect(frames.filter((frame) => frame.event.type === 'text-delta').length).toBeGreaterThan(2);
    const text = streamedText(frames);
    const vote = await client.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'a' });
    expect(vote.status).toBe(200);
    const reveal = vote.json.reveal as Record<'a' | 'b', { model: { id: string }; output_tokens: number }>;
    for (const side of ['a', 'b'] as const) {
      const model = reveal[side].model.id as 'tiny-a' | 'tiny-b';
      expect(text[side]).toBe(expected[model].text);
      expect(reveal[side].output_tokens).toBe(expected[model].tokens);
      expect(reveal[side].output_tokens).toBe(MAX_TOKENS);
    }
  });

  it('runs two duels on the same models at once: each model generates on its own sequences, one waits for the other', async () => {
    const { client } = harness;
    const duels = await Promise.all(
      [0, 1].map(() => client.request('POST', '/api/v1/duels', { prompt: PROMPT, mode: 'custom', models: ['tiny-a', 'tiny-b'] })),
    );
    const streams = await Promise.all(duels.map((duel) => client.stream(duel.json.id as string)));
    for (const [index, frames] of streams.entries()) {
      const vote = await client.request('POST', `/api/v1/duels/${duels[index]!.json.id as string}/vote`, { choice: 'tie' });
      const reveal = vote.json.reveal as Record<'a' | 'b', { model: { id: 'tiny-a' | 'tiny-b' } }>;
      const text = streamedText(frames);
      // Greedy decoding: the same answers as alone, whatever ran beside them.
      for (const side of ['a', 'b'] as const) expect(text[side]).toBe(expected[reveal[side].model.id].text);
    }
    expect(harness.arena.localModels.activeGenerations()).toBe(0);
    expect(harness.arena.localModels.waitingGenerations()).toBe(0);
  });

  it('stops the generation of a duel within a second once the other side failed', async () => {
    const { client, fake, arena } = harness;
    const hosted = TEST_MODELS[0];
    fake.behave(hosted.upstream, { tokensPerSecond: 20, cutAfterChunks: 6 });
    try {
      const created = await client.request('POST', '/api/v1/duels', { prompt: PROMPT, mode: 'custom', models: ['tiny-long', hosted.id] });
      const id = created.json.id as string;
      await until(
        async () => arena.localModels.activeGenerations(),
        (active) => active === 1,
        10_000,
      );
      const frames = await client.stream(id);
      const failedAt = Date.now();
      expect(frames.some((frame) => frame.event.type === 'turn-error')).toBe(true);
      await until(
        async () => arena.localModels.activeGenerations(),
        (active) => active === 0,
        5_000,
      );
      expect(Date.now() - failedAt).toBeLessThan(1000);
    } finally {
      fake.reset();
    }
  });

  it('never draws a local model whose file is missing, not GGUF, absurd or truncated, and says why', async () => {
    writeFileSync(join(folder, 'not-a-model.gguf'), 'this is text, not GGUF');
    // A header announcing 2^63 tensors (a reader would loop and allocate for them), and a real model cut in half.
    const absurd = Buffer.alloc(24);
    absurd.write('GGUF', 0, 'ascii');
    absurd.writeUInt32LE(3, 4);
    absurd.writeBigUInt64LE(2n ** 63n, 8);
    writeFileSync(join(folder, 'absurd.gguf'), absurd);
    const whole = readFileSync(join(folder, 'tiny-b.gguf'));
    writeFileSync(join(folder, 'truncated.gguf'), whole.subarray(0, Math.floor(whole.length / 2)));
    let brokenModels: CatalogueModel[] = [];
    const broken = (baseUrl: string) =>
      (brokenModels = parseCatalogue(
        testCatalogueYaml(baseUrl) +
          localEntry('gone', 'missing.gguf', { parallel: 1, maxTokens: 8 }) +
          localEntry('text', 'not-a-model.gguf', { parallel: 1, maxTokens: 8 }) +
          localEntry('absurd', 'absurd.gguf', { parallel: 1, maxTokens: 8 }) +
          localEntry('truncated', 'truncated.gguf', { parallel: 1, maxTokens: 8 }),
        join(folder, 'models.yaml'),
        {},
      ));
    const other = await startTestArena(dialect, { catalogue: broken });
    try {
      // The truncated file passes the header checks; llama.cpp's load, started at once, finds it out.
      const byId = await until(
        async () => {
          const models = await other.client.request('GET', '/api/v1/models');
          return new Map((models.json.models as { id: string; available: boolean }[]).map((model) => [model.id, model]));
        },
        (models) => models.get('truncated')?.available === false,
        10_000,
      );
      for (const id of ['gone', 'text', 'absurd', 'truncated']) expect(byId.get(id)?.available, id).toBe(false);
      const reasons = new Map(brokenModels.map((model) => [model.entry.id, model.unavailableReason]));
      expect(reasons.get('gone')).toMatch(/no model file at .*missing\.gguf: run `agora models pull`/);
      expect(reasons.get('text')).toMatch(/not-a-model\.gguf is not a GGUF file/);
      expect(reasons.get('absurd')).toMatch(/absurd\.gguf is not a valid GGUF file \(version 3, 9223372036854775808 tensors/);
      expect(reasons.get('truncated')).toMatch(/llama\.cpp cannot load .*truncated\.gguf/);
      const chosen = await other.client.request('POST', '/api/v1/duels', { prompt: PROMPT, mode: 'custom', models: ['gone', 'truncated'] });
      expect(chosen.status).toBeGreaterThanOrEqual(400);
      expect(chosen.status).toBeLessThan(500);
    } finally {
      await other.close();
    }
  });
});

/** A runtime of its own and a client of the tiny model A with `parallel` sequences, one thread. */
async function tinyClient(parallel: number) {
  const { LocalModelRuntime } = await import('../../src/providers/llama-cpp/local-model-runtime');
  const { LlamaCppModelClient } = await import('../../src/providers/llama-cpp/llama-cpp-model');
  const runtime = new LocalModelRuntime();
  const client = new LlamaCppModelClient('tiny-a', runtime, { path: join(folder, 'tiny-a.gguf'), contextSize: 512, parallel, threads: 1 });
  return { runtime, client };
}

describe('a local model under load', () => {
  it('serves more requests than it has sequences: the waiting ones take each sequence as it is freed', async () => {
    const { runtime, client } = await tinyClient(2);
    try {
      const answers = await Promise.all(
        [0, 1, 2, 3, 4, 5, 6].map(async (index) => {
          const { stream } = await client.doStream({
            messages: [{ role: 'user', content: `${PROMPT} ${index}` }],
            maxOutputTokens: 12 + index,
            temperature: 0,
          });
          const parts = [];
          for await (const part of stream) parts.push(part);
          return parts;
        }),
      );
      for (const [index, parts] of answers.entries()) {
        expect(parts.filter((part) => part.type === 'error')).toEqual([]);
        expect(parts.at(-1)).toMatchObject({ type: 'finish', usage: { outputTokens: 12 + index } });
      }
      await until(
        async () => runtime.activeGenerations() + runtime.waitingGenerations(),
        (count) => count === 0,
        5_000,
      );
    } finally {
      await runtime.close();
    }
  });

  it('honours a pipeline call: its output budget (cut on length, said so) and its JSON Schema (a grammar), as the optimised set needs', async () => {
    const { completeModelCall } = await import('../../src/providers/complete-model-call');
    const { runtime, client } = await tinyClient(1);
    try {
      const messages = [{ role: 'user' as const, content: PROMPT }];
      const cut = await completeModelCall(client, { messages, maxOutputTokens: 8, temperature: 0 }, 60_000);
      expect(cut).toMatchObject({ finishReason: 'length', usage: { outputTokens: 8 } });
      // A random tiny model answers only the JSON the schema allows, then stops.
      const schema = z.toJSONSchema(z.object({ better: z.enum(['A', 'B', 'tie']) }), { target: 'draft-7' }) as Record<string, unknown>;
      const structured = await completeModelCall(
        client,
        { messages, maxOutputTokens: 64, temperature: 0, responseFormat: { type: 'json', name: 'judge', schema } },
        60_000,
      );
      expect(structured.finishReason).toBe('stop');
      expect(JSON.parse(structured.text)).toEqual({ better: expect.stringMatching(/^(A|B|tie)$/) });
    } finally {
      await runtime.close();
    }
  });

  it('answers busy, as a hosted API says 429, once four requests per sequence already wait', async () => {
    const { ProviderCallError } = await import('../../src/providers/spec');
    const { runtime, client } = await tinyClient(1);
    const abort = new AbortController();
    try {
      const call = () =>
        client.doStream({
          messages: [{ role: 'user', content: PROMPT }],
          maxOutputTokens: 5000,
          temperature: 0,
          abortSignal: abort.signal,
        });
      const accepted = [];
      // One generating and four waiting.
      for (let index = 0; index < 5; index++) accepted.push(await call());
      const refused = await call().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(ProviderCallError.isInstance(refused)).toBe(true);
      expect(refused).toMatchObject({ statusCode: 429, isRetryable: true });
      expect((refused as Error).message).toMatch(/local model tiny-a is busy: 4 requests already wait/);
      expect(runtime.activeGenerations()).toBe(1);
      expect(runtime.waitingGenerations()).toBe(4);
    } finally {
      abort.abort();
      await until(
        async () => runtime.activeGenerations() + runtime.waitingGenerations(),
        (count) => count === 0,
        5_000,
      );
      await runtime.close();
    }
  });
});
