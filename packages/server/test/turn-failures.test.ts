import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../src/config/catalogue';
import { systemRuntime } from '../src/services/ports/runtime';
import type { FakeBehaviour } from './fake-upstream/fake-upstream';
import { DIALECTS } from './test-db';
import { type TestArena, startTestArena, streamedText } from './test-arena';

/** A loopback port where nothing listens (bound once, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
const refusedBaseUrl = `http://127.0.0.1:${await closedPort()}/v1`;

/** Failing models answer fast and time out fast; the healthy rival streams slowly, so it is still running when the other side fails. */
function catalogue(fakeBaseUrl: string, client: 'direct' | 'ai-sdk') {
  const model = (id: string, baseUrl: string, timeouts: string, params = 20) => `  - id: ${id}
    name: ${id} name
    organisation: ${id} org
    license: MIT
    open_weights: true
    arch: dense
    params_b: ${params}
    provider: { type: openai-compatible, client: ${client}, base_url: '${baseUrl}', model: 'up-${id}' }
    options: { ${timeouts} }`;
  const fast = 'first_token_timeout_ms: 400, total_timeout_ms: 1200';
  const yaml = `models:\n${[
    model('failing', fakeBaseUrl, fast),
    model('refused', refusedBaseUrl, fast),
    model('healthy', fakeBaseUrl, 'first_token_timeout_ms: 3000, total_timeout_ms: 20000'),
    model('spare', fakeBaseUrl, fast),
  ].join('\n')}\n`;
  return parseCatalogue(yaml, 'failures.yaml', {});
}

const slowAnswer: FakeBehaviour = { tokensPerSecond: 25, text: Array.from({ length: 200 }, (_, index) => `mot${index}`).join(' ') };

const failureKinds: { name: string; model: 'failing' | 'refused'; behaviour: FakeBehaviour; kind: string; attempts: number }[] = [
  { name: 'connection refused', model: 'refused', behaviour: {}, kind: 'connection_error', attempts: 2 },
  { name: 'HTTP 500', model: 'failing', behaviour: { httpStatus: 500 }, kind: 'http_error', attempts: 2 },
  { name: 'HTTP 400', model: 'failing', behaviour: { httpStatus: 400 }, kind: 'http_error', attempts: 1 },
  { name: 'first-token timeout', model: 'failing', behaviour: { firstTokenDelayMs: 5000 }, kind: 'first_token_timeout', attempts: 2 },
  { name: 'total timeout', model: 'failing', behaviour: { neverEnd: true, text: 'début sans fin' }, kind: 'total_timeout', attempts: 1 },
  { name: 'empty answer', model: 'failing', behaviour: { text: '' }, kind: 'empty_response', attempts: 1 },
  { name: 'malformed stream', model: 'failing', behaviour: { malformedAfterChunks: 2 }, kind: 'malformed_stream', attempts: 1 },
  { name: 'stream cut mid-answer', model: 'failing', behaviour: { cutAfterChunks: 3 }, kind: 'stream_cut', attempts: 1 },
];

async function eventually(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const clients = ['direct', 'ai-sdk'] as const;
const matrix = DIALECTS.flatMap((dialect) => clients.map((client) => ({ dialect, client, name: `${dialect.name}, ${client} client` })));

describe.each(matrix)('a failing side fails the whole turn ($name)', ({ dialect, client: providerClient }) => {
  let harness: TestArena;
  let coin = 0;
  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      catalogue: (baseUrl) => catalogue(baseUrl, providerClient),
      runtime: { ...systemRuntime, random: () => coin },
      // Up to 80 duels from one visitor in one test: a script, not someone to hold back.
      environment: { AGORA_LIMIT_PROMPTS_PER_HOUR: '0', AGORA_LIMIT_PROMPTS_PER_HOUR_PER_ADDRESS: '0' },
    });
  });
  afterAll(() => harness.close());
  // No turn of one test may still run, or reach the fake upstream, in the next one (tests run in any order).
  afterEach(() => harness.arena.duels.drain());

  describe.each(['a', 'b'] as const)('on side %s', (failingSide) => {
    it.each(failureKinds)('$name', async ({ model, behaviour, kind, attempts }) => {
      const { fake, client, arena } = harness;
      fake.reset();
      fake.behave('up-failing', behaviour);
      fake.behave('up-healthy', slowAnswer);
      // Custom mode with both models chosen: nothing may be replaced, so the failure must end the turn.
      coin = failingSide === 'a' ? 0.1 : 0.9;
      const created = await client.request('POST', '/api/v1/duels', { prompt: 'Bonjour', mode: 'custom', models: [model, 'healthy'] });
      expect(created.status).toBe(201);
      const id = created.json.id as string;
      const frames = await client.stream(id);

      expect(frames.at(-2)!.event).toMatchObject({ type: 'turn-error', code: kind });
      expect(frames.at(-1)!.event).toEqual({ type: 'turn-end', turn: 1, status: 'failed' });
      expect(frames.some((frame) => frame.event.type === 'side-end' && frame.event.side === failingSide)).toBe(false);
      // The healthy side's upstream request was cancelled, not left to finish.
      await eventually(() => fake.requestsFor('up-healthy').every((request) => request.aborted));
      expect(fake.requestsFor('up-healthy')).toHaveLength(1);
      expect(fake.requestsFor('up-healthy')[0]!.completed).toBe(false);
      if (model === 'failing') expect(fake.requestsFor('up-failing')).toHaveLength(attempts);

      const vote = await client.request('POST', `/api/v1/duels/${id}/vote`, { choice: failingSide === 'a' ? 'b' : 'a' });
      expect(vote).toMatchObject({ status: 409, json: { error: { code: 'duel_failed' } } });
      const reaction = await client.request('POST', `/api/v1/duels/${id}/reactions`, {
        side: failingSide === 'a' ? 'b' : 'a',
        turn: 1,
        value: 'like',
      });
      expect(reaction).toMatchObject({ status: 409, json: { error: { code: 'duel_failed' } } });
      const followUp = await client.request('POST', `/api/v1/duels/${id}/messages`, { prompt: 'encore' });
      expect(followUp).toMatchObject({ status: 409, json: { error: { code: 'duel_failed' } } });

      const duel = await arena.store.duels.findById(id);
      expect(duel!.status).toBe('failed');
      expect((await arena.store.duels.listTurns(id))[0]).toMatchObject({ status: 'failed', errorCode: kind });
      const sides = await arena.store.duels.listSides(id);
      expect(sides.find((side) => side.side === failingSide)).toMatchObject({ modelId: model, status: 'failed', errorKind: kind });
      expect(sides.find((side) => side.side !== failingSide)).toMatchObject({ modelId: 'healthy', status: 'cancelled' });
      expect(sides.some((side) => side.status === 'complete')).toBe(false);
      const errors = await arena.store.duels.listUpstreamErrors(id);
      expect(errors).toHaveLength(attempts);
      expect(errors.every((error) => error.modelId === model && error.kind === kind && !error.replaced && error.side === failingSide)).toBe(
        true,
      );
      expect(await arena.store.feedback.findVote(id)).toBeUndefined();
      // What the visitor saw live of the healthy side was stored (for operators), and never shown as complete.
      expect(sides.find((side) => side.side !== failingSide)!.text.startsWith(streamedText(frames)[failingSide === 'a' ? 'b' : 'a'])).toBe(
        true,
      );
      // Once failed, the turn is withheld for both sides: a replay and the transcript show no answer.
      const replay = await client.stream(id);
      expect(replay.filter(({ event }) => ['text-delta', 'reasoning-delta', 'side-end'].includes(event.type))).toEqual([]);
      expect(replay.at(-1)!.event).toEqual({ type: 'turn-end', turn: 1, status: 'failed' });
      const transcript = await client.request('GET', `/api/v1/duels/${id}`);
      expect(transcript.json.turns[0]).toMatchObject({
        status: 'failed',
        a: { text: '', reasoning: null },
        b: { text: '', reasoning: null },
      });
    });
  });

  it('retries a retryable error before the first token, then goes on with the same model', async () => {
    const { fake, client, arena } = harness;
    fake.reset();
    fake.behave('up-healthy', { text: 'réponse stable' });
    fake.behave('up-failing', { httpStatus: 503, failTimes: 1, text: 'deuxième essai réussi' });
    const created = await client.request('POST', '/api/v1/duels', { prompt: 'Bonjour', mode: 'custom', models: ['failing', 'healthy'] });
    const frames = await client.stream(created.json.id);
    expect(frames.at(-1)!.event).toMatchObject({ type: 'turn-end', status: 'complete' });
    expect(fake.requestsFor('up-failing')).toHaveLength(2);
    expect(Object.values(streamedText(frames))).toContain('deuxième essai réussi');
    const errors = await arena.store.duels.listUpstreamErrors(created.json.id);
    expect(errors).toMatchObject([{ modelId: 'failing', kind: 'http_error', statusCode: 503, replaced: false }]);
  });

  it('a duel the store cannot record fails its request and stops both upstream calls, which start before the commit', async () => {
    const { fake, client, arena } = harness;
    fake.reset();
    fake.behave('up-healthy', slowAnswer);
    fake.behave('up-spare', slowAnswer);
    const { store } = arena;
    const transaction = store.transaction;
    let upstreamCallsAtCommit = -1;
    store.transaction = async () => {
      // The models are already being called while the duel commits.
      await eventually(() => fake.requests.length === 2);
      upstreamCallsAtCommit = fake.requests.length;
      throw new Error('disk I/O error');
    };
    try {
      const created = await client.request('POST', '/api/v1/duels', {
        prompt: 'jamais enregistré',
        mode: 'custom',
        models: ['healthy', 'spare'],
      });
      expect(created).toMatchObject({ status: 500, json: { error: { code: 'internal_error' } } });
    } finally {
      store.transaction = transaction;
    }
    expect(upstreamCallsAtCommit).toBe(2);
    await eventually(() => fake.requests.every((request) => request.aborted));
    expect(fake.requests.some((request) => request.completed)).toBe(false);
    await arena.duels.drain();
    // Nothing of it was stored; the next duel runs as usual.
    const next = await client.request('POST', '/api/v1/duels', { prompt: 'Bonjour', mode: 'custom', models: ['healthy', 'spare'] });
    expect(next.status).toBe(201);
  });

  // Node's own HTTP client only: the AI SDK adapter calls through fetch, which hands requests over differently.
  if (providerClient === 'direct')
    it('writes both upstream requests before the new duel begins its transaction, so that its commit never holds them back', async () => {
      const { fake, client, arena } = harness;
      fake.reset();
      fake.behave('up-healthy', slowAnswer);
      fake.behave('up-spare', slowAnswer);
      const events: string[] = [];
      // Published by Node's HTTP client once a request has been written to its connection.
      const onRequestWritten = (message: unknown) => {
        if ((message as { request: ClientRequest }).request.path.endsWith('/chat/completions')) events.push('upstream request written');
      };
      subscribe('http.client.request.start', onRequestWritten);
      const { store } = arena;
      const transaction = store.transaction;
      store.transaction = (work) =>
        transaction((repositories) => {
          events.push('transaction');
          return work(repositories);
        });
      let created;
      try {
        created = await client.request('POST', '/api/v1/duels', { prompt: 'vite', mode: 'custom', models: ['healthy', 'spare'] });
      } finally {
        store.transaction = transaction;
        unsubscribe('http.client.request.start', onRequestWritten);
      }
      expect(created.status).toBe(201);
      expect(events.slice(0, 3)).toEqual(['upstream request written', 'upstream request written', 'transaction']);
      await client.stream(created.json.id);
    });

  it('replaces a drawn model that fails before its first token, once, without telling which side changed', async () => {
    const { fake, client, arena } = harness;
    fake.reset();
    fake.behave('up-failing', { httpStatus: 502 });
    fake.behave('up-healthy', { text: 'je réponds' });
    fake.behave('up-spare', { text: 'je remplace' });
    fake.behave('up-refused', {});
    // One chosen model ("healthy"): its rival is drawn from the pool and may be replaced; the chosen one never is.
    // Two models of the pool fail ("failing" answers 502, "refused" is unreachable): when the replacement fails
    // too, the turn fails, since a side is replaced only once.
    const seen = new Set<string>();
    for (let attempt = 0; attempt < 80 && seen.size < 2; attempt += 1) {
      coin = ((attempt * 7919) % 80) / 80;
      const created = await client.request('POST', '/api/v1/duels', { prompt: 'Bonjour', mode: 'custom', models: ['healthy'] });
      const id = created.json.id as string;
      const frames = await client.stream(id);
      const errors = await arena.store.duels.listUpstreamErrors(id);
      if (errors.length === 0) continue;
      // The replaced model, found by its flag: errors stored in the same millisecond have no order, so
      // the first row may be the replacement's own failure.
      const original = errors.find((error) => error.replaced)!;
      expect(original).toBeDefined();
      const stored = (await arena.store.duels.findById(id))!;
      const replacement = original.side === 'a' ? stored.modelA : stored.modelB;
      // One retry (both errors are retryable), then the replacement, always on the same side.
      expect(
        errors
          .filter((error) => error.modelId === original.modelId)
          .map((error) => error.replaced)
          .sort(),
      ).toEqual([false, true]);
      expect(errors.every((error) => error.side === original.side)).toBe(true);
      expect([original.modelId, 'healthy']).not.toContain(replacement);
      if (replacement === 'spare') {
        seen.add('complete');
        expect(frames.at(-1)!.event).toMatchObject({ type: 'turn-end', status: 'complete' });
        expect(frames.some((frame) => frame.event.type === 'turn-error')).toBe(false);
        const vote = await client.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'tie' });
        expect(vote.json.reveal[original.side].model.id).toBe('spare');
      } else {
        seen.add('failed');
        expect(frames.at(-1)!.event).toMatchObject({ type: 'turn-end', status: 'failed' });
        expect(errors.filter((error) => error.modelId === replacement).every((error) => !error.replaced)).toBe(true);
      }
    }
    expect([...seen].sort()).toEqual(['complete', 'failed']);
  });
});
