import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, consoleModelListSchema, modelTestResultSchema } from '@agora/contract';
import { DIALECTS } from './test-db';
import { parseCatalogue } from '../src/config/catalogue';
import { FakeUpstream } from './fake-upstream/fake-upstream';
import { ArenaClient, type TestArena, startTestArena, testCatalogueYaml, until } from './test-arena';

const ADMIN_TOKEN = 'console-models-admin-token';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const environment = { AGORA_ADMIN_TOKEN: ADMIN_TOKEN, AGORA_MODEL_SYNC_MS: '200', AGORA_LIMIT_PROMPTS_PER_HOUR: '1000' };

async function call(harness: TestArena, method: string, path: string, body?: unknown, headers: Record<string, string> = admin) {
  const response = await fetch(`${harness.baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

async function listed(harness: TestArena) {
  const answer = await call(harness, 'GET', '/api/v1/admin/models');
  expect(answer.status).toBe(200);
  return consoleModelListSchema.parse(answer.json);
}

const openAiProvider = (list: { providers: { key: string; type: string }[] }) =>
  list.providers.find((provider) => provider.type === 'openai-compatible')!.key;

/** A model the YAML does not list, on the YAML's OpenAI-compatible provider (the fake upstream). */
const addedModel = (provider: string, id = 'velmora-12b') => ({
  id,
  name: 'Velmora Light',
  organisation: 'Ostrand Works',
  license: 'MIT',
  open_weights: true,
  arch: 'dense',
  params_b: 12,
  description: { fr: 'Un petit modèle ajouté depuis la console.', en: 'A small model added from the console.' },
  provider,
  provider_model: `ostrand/${id}`,
});

async function customDuel(client: ArenaClient, models: string[]) {
  const created = await client.request('POST', '/api/v1/duels', { prompt: 'Bonjour', mode: 'custom', models });
  return created;
}

describe.each(DIALECTS)('the console’s models ($name)', (dialect) => {
  let harness: TestArena;
  beforeAll(async () => {
    harness = await startTestArena(dialect, { environment });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('lists models.yaml as the source, and the providers it configures without any key', async () => {
    const list = await listed(harness);
    expect(list.models.map((model) => [model.id, model.origin, model.status, model.drawable])).toEqual([
      ['zephyrine-405b', 'yaml', 'enabled', true],
      ['brontal-120b', 'yaml', 'enabled', true],
      ['miravel-24b', 'yaml', 'enabled', true],
      ['kestrix-8b', 'yaml', 'enabled', true],
      ['sollary-32b', 'yaml', 'enabled', true],
      ['ombrel-70b', 'yaml', 'enabled', true],
    ]);
    expect(list.providers.map((provider) => provider.type)).toEqual(['openai-compatible', 'anthropic']);
    expect(list.providers[0]!.base_url).toBe(harness.fake.baseUrl);
  });

  it('overrides a model’s facts (shown as such, on its public card), then resets it to models.yaml', async () => {
    const description = { fr: 'Un grand modèle.', en: 'A large model.', lt: 'Didelis modelis.' };
    const patched = await call(harness, 'PATCH', '/api/v1/admin/models/brontal-120b', { params_b: 130, license: 'MIT', description });
    expect(patched.status).toBe(204);
    const model = (await listed(harness)).models.find((candidate) => candidate.id === 'brontal-120b')!;
    expect(model).toMatchObject({ origin: 'overridden', params_b: 130, license: 'MIT', description, updated_by: 'admin-token' });
    expect(model.overridden_fields.sort()).toEqual(['description', 'license', 'params_b']);
    // A second change keeps the first.
    expect(
      (
        await call(harness, 'PATCH', '/api/v1/admin/models/brontal-120b', {
          pricing: { input_per_million_usd: 1, output_per_million_usd: 2 },
        })
      ).status,
    ).toBe(204);
    const card = (await new ArenaClient(harness.baseUrl).request('GET', '/api/v1/models')).json.models.find(
      (entry: { id: string }) => entry.id === 'brontal-120b',
    );
    expect(card).toMatchObject({ params_b: 130, license: 'MIT', descriptions: description, pricing: { output_per_million_usd: 2 } });

    expect((await call(harness, 'DELETE', '/api/v1/admin/models/brontal-120b/override')).status).toBe(204);
    const reset = (await listed(harness)).models.find((candidate) => candidate.id === 'brontal-120b')!;
    expect(reset).toMatchObject({ origin: 'yaml', params_b: 120, license: 'Apache 2.0', pricing: null, overridden_fields: [] });
    expect((await call(harness, 'DELETE', '/api/v1/admin/models/brontal-120b/override')).json.error.code).toBe('not_found');
  });

  it('never draws a disabled model for a new duel, while a duel under way with it finishes', async () => {
    harness.fake.behave('quorvex/kestrix-nano', {
      tokensPerSecond: 30,
      text: 'un deux trois quatre cinq six sept huit neuf dix onze douze',
    });
    const visitor = new ArenaClient(harness.baseUrl);
    const running = await customDuel(visitor, ['kestrix-8b', 'miravel-24b']);
    expect(running.status).toBe(201);
    const streamed = visitor.stream(running.json.id);
    expect((await call(harness, 'PATCH', '/api/v1/admin/models/kestrix-8b', { status: 'disabled' })).status).toBe(204);
    expect((await streamed).at(-1)?.event).toMatchObject({ type: 'turn-end', status: 'complete' });

    const refused = await customDuel(visitor, ['kestrix-8b', 'miravel-24b']);
    expect(refused.status).toBe(400);
    const drawn = new Set<string>();
    for (let duel = 0; duel < 25; duel += 1) {
      const created = await new ArenaClient(harness.baseUrl).request('POST', '/api/v1/duels', { prompt: `Question ${duel}` });
      expect(created.status).toBe(201);
      const stored = await harness.arena.store.duels.findById(created.json.id);
      drawn.add(stored!.modelA).add(stored!.modelB);
    }
    expect(drawn.has('kestrix-8b')).toBe(false);
    expect(drawn.size).toBeGreaterThanOrEqual(4);
    expect(
      (await new ArenaClient(harness.baseUrl).request('GET', '/api/v1/models')).json.models.map((model: { id: string }) => model.id),
    ).not.toContain('kestrix-8b');
    expect((await call(harness, 'DELETE', '/api/v1/admin/models/kestrix-8b/override')).status).toBe(204);
    expect((await customDuel(visitor, ['kestrix-8b', 'miravel-24b'])).status).toBe(201);
  }, 60_000);

  it('adds a model of a configured provider without a restart: a custom duel with it streams from the upstream', async () => {
    const provider = openAiProvider(await listed(harness));
    expect((await call(harness, 'POST', '/api/v1/admin/models', addedModel(provider))).status).toBe(201);
    harness.fake.behave('ostrand/velmora-12b', { text: 'Bonjour de Velmora.' });
    const visitor = new ArenaClient(harness.baseUrl);
    const created = await customDuel(visitor, ['velmora-12b', 'zephyrine-405b']);
    expect(created.status).toBe(201);
    const frames = await visitor.stream(created.json.id);
    expect(frames.at(-1)?.event).toMatchObject({ type: 'turn-end', status: 'complete' });
    expect(harness.fake.requestsFor('ostrand/velmora-12b').length).toBe(1);
    const model = (await listed(harness)).models.find((candidate) => candidate.id === 'velmora-12b')!;
    expect(model).toMatchObject({ origin: 'added', drawable: true, provider: { type: 'openai-compatible', model: 'ostrand/velmora-12b' } });
    expect(model.stats).toMatchObject({ answers: 1, failed: 0, error_rate: 0 });
    expect(model.stats.mean_duration_ms).not.toBeNull();
    // An added model's facts change in its own entry; a reset removes it.
    expect((await call(harness, 'PATCH', '/api/v1/admin/models/velmora-12b', { params_b: 14 })).status).toBe(204);
    expect((await listed(harness)).models.find((candidate) => candidate.id === 'velmora-12b')).toMatchObject({
      origin: 'added',
      params_b: 14,
    });
    expect((await call(harness, 'DELETE', '/api/v1/admin/models/velmora-12b/override')).status).toBe(204);
    expect((await listed(harness)).models.map((candidate) => candidate.id)).not.toContain('velmora-12b');
    expect((await customDuel(visitor, ['velmora-12b', 'zephyrine-405b'])).status).toBe(400);
  }, 30_000);

  it('makes a test call: the answer’s first characters and timings, or the error in words; errors and rates are read from the store', async () => {
    harness.fake.behave('tarvonia/miravel-swift', { text: 'Bonjour, je suis prêt.', firstTokenDelayMs: 50 });
    const passed = modelTestResultSchema.parse((await call(harness, 'POST', '/api/v1/admin/models/miravel-24b/test', {})).json);
    expect(passed).toMatchObject({ ok: true, text: 'Bonjour, je suis prêt.', error: null });
    expect(passed.ttft_ms).toBeGreaterThanOrEqual(40);
    expect(passed.total_ms).toBeGreaterThanOrEqual(passed.ttft_ms!);

    harness.fake.behave('tarvonia/miravel-swift', { httpStatus: 401 });
    const failed = modelTestResultSchema.parse(
      (await call(harness, 'POST', '/api/v1/admin/models/miravel-24b/test', { prompt: 'Salut' })).json,
    );
    expect(failed).toMatchObject({ ok: false, error: { kind: 'http_error' } });

    // A duel whose side fails is recorded; the console reads its errors and rate from the store.
    harness.fake.behave('quorvex/zephyrine-ultra', { httpStatus: 400 });
    const visitor = new ArenaClient(harness.baseUrl);
    const created = await customDuel(visitor, ['zephyrine-405b', 'brontal-120b']);
    await visitor.stream(created.json.id);
    harness.fake.behave('quorvex/zephyrine-ultra', {});
    const model = (await listed(harness)).models.find((candidate) => candidate.id === 'zephyrine-405b')!;
    expect(model.last_errors[0]).toMatchObject({ kind: 'http_error', status_code: 400 });
    expect(model.stats.failed).toBeGreaterThanOrEqual(1);
    expect(model.stats.error_rate).toBeGreaterThan(0);
  }, 30_000);

  it('refuses bad input with 400 (and the error body), unknown models with 404', async () => {
    const provider = openAiProvider(await listed(harness));
    const bad: [string, string, unknown][] = [
      ['POST', '/api/v1/admin/models', { ...addedModel(provider, 'tessaly-3b'), provider: 'openai-compatible https://evil.example/v1' }],
      ['POST', '/api/v1/admin/models', { ...addedModel(provider), id: 'Not A Slug' }],
      ['POST', '/api/v1/admin/models', { ...addedModel(provider), api_key: 'sk-secret' }],
      ['POST', '/api/v1/admin/models', { ...addedModel(provider), id: 'zephyrine-405b' }],
      ['POST', '/api/v1/admin/models', { ...addedModel(provider), params_b: -3 }],
      ['POST', '/api/v1/admin/models', '{"id":'],
      ['PATCH', '/api/v1/admin/models/brontal-120b', {}],
      ['PATCH', '/api/v1/admin/models/brontal-120b', { status: 'gone' }],
      ['PATCH', '/api/v1/admin/models/brontal-120b', { description: { xx: 'texte' } }],
      ['PATCH', '/api/v1/admin/models/brontal-120b', { license_url: 'javascript:alert(1)' }],
      ['PATCH', '/api/v1/admin/models/brontal-120b', { provider: { base_url: 'https://evil.example' } }],
      ['PATCH', '/api/v1/admin/models/BAD%20ID', { params_b: 3 }],
      ['POST', '/api/v1/admin/models/brontal-120b/test', { prompt: 'x'.repeat(501) }],
    ];
    for (const [method, path, body] of bad) {
      const answer = await call(harness, method, path, body);
      expect({ method, path, status: answer.status }).toEqual({ method, path, status: 400 });
      expect(typeof answer.json.error.code).toBe('string');
    }
    expect((await call(harness, 'PATCH', '/api/v1/admin/models/nobody-1b', { params_b: 3 })).status).toBe(404);
    expect((await call(harness, 'POST', '/api/v1/admin/models/nobody-1b/test', {})).status).toBe(404);
    expect((await listed(harness)).models.map((model) => model.origin)).not.toContain('added');
  });

  it('records the signed-in admin as the author, and refuses a reviewer (403) and a change without the CSRF token', async () => {
    const session = async (email: string, role: 'admin' | 'reviewer') => {
      const invited = await harness.arena.console.staff.invite(email, role);
      const token = new URL(invited.link).hash.replace('#token=', '');
      const response = await fetch(`${harness.baseUrl}/api/v1/staff/activate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, password: 'a long console password' }),
      });
      return {
        cookie: response.headers.get('set-cookie')!.split(';')[0]!,
        csrf: ((await response.json()) as { csrf_token: string }).csrf_token,
      };
    };
    const reviewer = await session('reviewer@models.example', 'reviewer');
    expect((await call(harness, 'GET', '/api/v1/admin/models', undefined, { cookie: reviewer.cookie })).status).toBe(403);
    const owner = await session('owner@models.example', 'admin');
    expect((await call(harness, 'PATCH', '/api/v1/admin/models/ombrel-70b', { params_b: 72 }, { cookie: owner.cookie })).status).toBe(403);
    const changed = await call(
      harness,
      'PATCH',
      '/api/v1/admin/models/ombrel-70b',
      { params_b: 72 },
      { cookie: owner.cookie, [CSRF_HEADER]: owner.csrf },
    );
    expect(changed.status).toBe(204);
    expect((await listed(harness)).models.find((model) => model.id === 'ombrel-70b')).toMatchObject({
      updated_by: 'owner@models.example',
      params_b: 72,
    });
    expect((await call(harness, 'DELETE', '/api/v1/admin/models/ombrel-70b/override')).status).toBe(204);
  });
});

const postgres = DIALECTS.find((dialect) => dialect.name === 'postgres');

describe.runIf(postgres)('the console’s models on two instances of one PostgreSQL', () => {
  let first: TestArena;
  let second: TestArena;
  // One models.yaml for both instances, as in production: its provider is one upstream both call.
  const upstream = new FakeUpstream();
  const several = { ...environment, AGORA_INSTANCES: 'several', AGORA_MODEL_SYNC_MS: '500' };
  const catalogue = () => parseCatalogue(testCatalogueYaml(upstream.baseUrl), 'models.yaml', several);
  beforeAll(async () => {
    await upstream.start();
    first = await startTestArena(postgres!, { environment: several, catalogue });
    second = await startTestArena(postgres!, { environment: several, catalogue, store: first.store });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await upstream.stop();
  });

  it('a model added on one instance is drawn on the other within the poll, and disabled there too', async () => {
    const provider = openAiProvider(await listed(first));
    expect((await call(first, 'POST', '/api/v1/admin/models', addedModel(provider, 'corvane-7b'))).status).toBe(201);
    const addedAt = Date.now();
    const visitor = new ArenaClient(second.baseUrl);
    const created = await until(
      () => customDuel(visitor, ['corvane-7b', 'kestrix-8b']),
      (answer) => answer.status === 201,
      5_000,
    );
    const seenAfterMs = Date.now() - addedAt;
    expect(seenAfterMs).toBeLessThan(3_000);
    await visitor.stream(created.json.id);
    expect(upstream.requestsFor('ostrand/corvane-7b').length).toBe(1);
    expect((await listed(second)).models.find((model) => model.id === 'corvane-7b')).toMatchObject({
      origin: 'added',
      updated_by: 'admin-token',
    });

    expect((await call(second, 'PATCH', '/api/v1/admin/models/corvane-7b', { status: 'disabled' })).status).toBe(204);
    await until(
      () => customDuel(new ArenaClient(first.baseUrl), ['corvane-7b', 'kestrix-8b']),
      (answer) => answer.status === 400,
      5_000,
    );
  }, 30_000);
});
