import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../src/config/catalogue';
import { DIALECTS } from './test-db';
import { type TestArena, TEST_MODELS, startTestArena, testCatalogueYaml } from './test-arena';

const adminToken = 'a-very-secret-admin-token';

describe.each(DIALECTS)('operations ($name)', (dialect) => {
  let harness: TestArena;
  beforeAll(async () => {
    harness = await startTestArena(dialect, { environment: { AGORA_ADMIN_TOKEN: adminToken } });
  });
  afterAll(() => harness.close());

  it('/healthz answers when the store answers', async () => {
    expect(await harness.client.request('GET', '/healthz')).toMatchObject({ status: 200, json: { status: 'ok' } });
  });

  it('publishes an OpenAPI document generated from the request schemas', async () => {
    const { status, json } = await harness.client.request('GET', '/api/v1/openapi.json');
    expect(status).toBe(200);
    expect(json.openapi).toBe('3.0.3');
    expect(Object.keys(json.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/duels',
        '/api/v1/duels/{id}/stream',
        '/api/v1/duels/{id}/vote',
        '/api/v1/duels/{id}/reactions',
        '/api/v1/models',
      ]),
    );
    const createBody = json.paths['/api/v1/duels'].post.requestBody.content['application/json'].schema;
    expect(createBody.properties.mode.enum).toEqual(['random', 'custom', 'small-models', 'big-vs-small', 'reasoning']);
    expect(createBody.additionalProperties).toBe(false);
    const vote = json.paths['/api/v1/duels/{id}/vote'].post.requestBody.content['application/json'].schema;
    expect(vote.properties.choice.enum).toEqual(['a', 'b', 'tie', 'both_bad']);
  });

  it('lists public model cards without provider settings', async () => {
    const { json } = await harness.client.request('GET', '/api/v1/models');
    expect(json.models).toHaveLength(TEST_MODELS.length);
    expect(json.setup_hint).toBeUndefined();
    const serialized = JSON.stringify(json);
    expect(serialized).not.toContain('base_url');
    expect(serialized).not.toContain(TEST_MODELS[0].upstream);
  });

  it('exposes Prometheus metrics: requests, turns, upstream latency and errors per model, open streams', async () => {
    const { client } = harness;
    await playFailingDuel(harness);
    const fine = await client.request('POST', '/api/v1/duels', {
      prompt: 'x',
      mode: 'custom',
      models: [TEST_MODELS[2].id, TEST_MODELS[3].id],
    });
    await client.stream(fine.json.id);
    await client.request('POST', `/api/v1/duels/${fine.json.id}/vote`, { choice: 'a' });
    const response = await fetch(`${harness.baseUrl}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } });
    const text = await response.text();
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(text).toMatch(/agora_http_requests_total\{method="POST",route="\/api\/v1\/duels",status="201"\} \d+/);
    expect(text).toContain('agora_turns_total{status="failed"} 1');
    expect(text).toContain('agora_turns_total{status="complete"} 1');
    expect(text).toContain('agora_votes_total{choice="a"} 1');
    expect(text).toContain(`agora_upstream_errors_total{model="${TEST_MODELS[0].id}",kind="http_error"} 2`);
    expect(text).toMatch(new RegExp(`agora_upstream_first_token_seconds_count\\{model="${TEST_MODELS[2].id}"\\} 1`));
    expect(text).toMatch(/agora_open_streams 0/);
  });

  it('keeps /metrics from visitors: the two-snapshot attack that named the sides of a duel before its vote gets nothing', async () => {
    // The attack: read /metrics, play one duel up to its vote, read again; the models whose counters
    // moved are the pair, and the side whose stream ended first has the smaller duration sum.
    const snapshot = async () => {
      const response = await fetch(`${harness.baseUrl}/metrics`);
      return { status: response.status, text: await response.text() };
    };
    const before = await snapshot();
    const duel = await harness.client.request('POST', '/api/v1/duels', { prompt: 'Qui êtes-vous ?' });
    await harness.client.stream(duel.json.id);
    const after = await snapshot();
    for (const read of [before, after]) {
      expect(read.status).toBe(401);
      for (const model of TEST_MODELS) expect(read.text).not.toContain(model.id);
    }
    expect(JSON.parse(after.text)).toMatchObject({ error: { code: 'unauthorized' } });
    // A wrong token is no better; without any token configured, the route does not exist.
    expect((await fetch(`${harness.baseUrl}/metrics`, { headers: { authorization: 'Bearer wrong-token-of-some-length' } })).status).toBe(
      401,
    );
    const closed = await startTestArena(dialect);
    try {
      expect(await closed.client.request('GET', '/metrics')).toMatchObject({ status: 404, json: { error: { code: 'not_found' } } });
    } finally {
      await closed.close();
    }
  });

  it('sends security headers: a CSP without inline scripts beyond the page’s own (by hash), no framing, nosniff, a referrer policy', async () => {
    for (const path of ['/', '/leaderboard', '/api/v1/models']) {
      const response = await fetch(`${harness.baseUrl}${path}`);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')*;/);
      expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
      expect(csp).toContain("object-src 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    }
    // Every inline script of the page is allowed by its hash, and nothing else inline.
    const page = await fetch(`${harness.baseUrl}/`);
    const html = await page.text();
    const csp = page.headers.get('content-security-policy')!;
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
    expect(inline.length).toBeGreaterThan(0);
    for (const [, body] of inline) expect(csp).toContain(`'sha256-${createHash('sha256').update(body!).digest('base64')}'`);
  });

  it('sends the same security headers on a turn stream, which writes its own head, as on a page', async () => {
    const securityOf = (headers: Headers) =>
      Object.fromEntries(
        [...headers].filter(([name]) =>
          /^(content-security-policy|cross-origin-|origin-agent|referrer-policy|x-(?!request-id|agora|accel))/.test(name),
        ),
      );
    const page = securityOf((await fetch(`${harness.baseUrl}/`)).headers);
    expect(Object.keys(page).length).toBeGreaterThanOrEqual(10);
    const created = await harness.client.request('POST', '/api/v1/duels', { prompt: 'Bonjour' });
    const stream = await fetch(`${harness.baseUrl}/api/v1/duels/${created.json.id}/stream`, {
      headers: { cookie: harness.client.visitorCookie ?? '' },
    });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(securityOf(stream.headers)).toEqual(page);
    await stream.text();
    await harness.arena.duels.drain();
  });

  it('answers 404 for files that do not exist instead of the app’s page, and serves robots.txt', async () => {
    for (const path of ['/.env', '/.git/config', '/wp-login.php', '/favicon.ico', '/api/v1/../.env']) {
      const response = await fetch(`${harness.baseUrl}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(await response.text()).not.toContain('<html');
    }
    const robots = await fetch(`${harness.baseUrl}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(await robots.text()).toContain('Disallow: /api/');
    // App routes still fall back to the page.
    expect((await fetch(`${harness.baseUrl}/datasets`)).status).toBe(200);
  });

  it('refuses request bodies that are not JSON with 415, before reading them', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined]) {
      const response = await fetch(`${harness.baseUrl}/api/v1/duels`, {
        method: 'POST',
        headers: type ? { 'content-type': type } : {},
        body: type === undefined ? new Blob(['{"prompt":"Bonjour"}']) : 'prompt=Bonjour',
      });
      expect({ type, status: response.status }).toEqual({ type, status: 415 });
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type');
    }
    const json = await harness.client.request(
      'POST',
      '/api/v1/duels',
      { prompt: 'Bonjour' },
      { 'content-type': 'application/json; charset=utf-8' },
    );
    expect(json.status).toBe(201);
  });

  it('refuses NUL and other control characters in admin inputs with 400, on both stores (PostgreSQL answered 500)', async () => {
    const admin = { authorization: `Bearer ${adminToken}` };
    const nulCursor = Buffer.from(JSON.stringify(['\u0000', 'x'])).toString('base64url');
    for (const [method, path, body] of [
      ['GET', '/api/v1/admin/review/%00', undefined],
      ['GET', '/api/v1/admin/review-log?duel_id=%00', undefined],
      ['GET', `/api/v1/admin/review?cursor=${nulCursor}`, undefined],
      ['PUT', '/api/v1/admin/review/AAAAAAAAAAAAAAAAAAAAAA', { decision: 'exclude', reviewer: 'a\u0000b' }],
      ['PUT', '/api/v1/admin/review/AAAAAAAAAAAAAAAAAAAAAA', { decision: 'exclude', reviewer: 'alice', reason: '\u0000' }],
      ['PUT', '/api/v1/admin/votes/AAAAAAAAAAAAAAAAAAAAAA', { decision: 'exclude', reviewer: 'a\u0000b' }],
    ] as const) {
      const response = await harness.client.request(method, path, body, admin);
      expect({ path, status: response.status, code: response.json?.error?.code }).toEqual({ path, status: 400, code: 'invalid_request' });
    }
  });

  it('gives operators the per-model error view behind the admin token', async () => {
    // Its own arena: the view counts every failure in the store, so no other test may add to it or be needed for it.
    const own = await startTestArena(dialect, { environment: { AGORA_ADMIN_TOKEN: adminToken } });
    try {
      await expectUpstreamErrorView(own);
    } finally {
      await own.close();
    }
  });
});

/** A duel whose first model answers 500 twice (the call and its retry): one failed turn, two upstream errors. */
async function playFailingDuel({ client, fake }: TestArena): Promise<void> {
  fake.behave(TEST_MODELS[0].upstream, { httpStatus: 500, failTimes: 10 });
  const failed = await client.request('POST', '/api/v1/duels', {
    prompt: 'x',
    mode: 'custom',
    models: [TEST_MODELS[0].id, TEST_MODELS[1].id],
  });
  await client.stream(failed.json.id);
}

async function expectUpstreamErrorView(arena: TestArena): Promise<void> {
  const { client } = arena;
  await playFailingDuel(arena);
  expect((await client.request('GET', '/api/v1/admin/upstream-errors')).status).toBe(401);
  expect((await client.request('GET', '/api/v1/admin/upstream-errors', undefined, { authorization: 'Bearer wrong' })).status).toBe(401);
  const view = await client.request('GET', '/api/v1/admin/upstream-errors?hours=1', undefined, { authorization: `Bearer ${adminToken}` });
  expect(view.status).toBe(200);
  expect(view.json.models).toContainEqual({ model: TEST_MODELS[0].id, kind: 'http_error', count: 2 });
}

describe('an arena with no model available', () => {
  it('still starts, and the API says what to configure', async () => {
    const harness = await startTestArena(DIALECTS[0]!, {
      catalogue: (baseUrl) =>
        parseCatalogue(
          testCatalogueYaml(baseUrl).replaceAll('    provider:\n', '    provider:\n      api_key_env: MISSING_KEY\n'),
          'models.yaml',
          {},
        ),
    });
    try {
      expect((await harness.client.request('GET', '/healthz')).status).toBe(200);
      const models = await harness.client.request('GET', '/api/v1/models');
      expect(models.json.setup_hint).toContain('MISSING_KEY');
      // The same guidance as data, for the web app to word in the visitor's language.
      expect(models.json.setup).toEqual({ missing_keys: ['MISSING_KEY'] });
      expect(models.json.models.every((model: { available: boolean }) => !model.available)).toBe(true);
      const created = await harness.client.request('POST', '/api/v1/duels', { prompt: 'x' });
      expect(created).toMatchObject({ status: 503, json: { error: { code: 'no_models_available' } } });
      expect(created.json.error.message).toContain('MISSING_KEY');
    } finally {
      await harness.close();
    }
  });
});
