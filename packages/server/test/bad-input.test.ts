import { errorBodySchema } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/dialect';
import { DIALECTS, countRows } from './test-db';
import { ArenaClient, type TestArena, TEST_MODELS, startTestArena } from './test-arena';

describe.each(DIALECTS)('bad input gets a 4xx with the error body and changes nothing ($name)', (dialect) => {
  let harness: TestArena;
  let readyDuel: string;
  let votedDuel: string;
  let failedDuel: string;

  beforeAll(async () => {
    // Its one visitor sends more reports than a visitor's hourly limit (10), the refused ones included.
    harness = await startTestArena(dialect, {
      environment: { AGORA_MAX_PROMPT_CHARS: '500', AGORA_MAX_TURNS: '2', AGORA_LIMIT_REPORTS_PER_HOUR: '30' },
    });
    const { client, fake } = harness;
    const start = async (body: Record<string, unknown> = { prompt: 'Bonjour' }) => {
      const created = await client.request('POST', '/api/v1/duels', body);
      await client.stream(created.json.id);
      return created.json.id as string;
    };
    readyDuel = await start();
    votedDuel = await start();
    await client.request('POST', `/api/v1/duels/${votedDuel}/vote`, { choice: 'a' });
    fake.behave(TEST_MODELS[0].upstream, { httpStatus: 500, failTimes: 100 });
    failedDuel = await start({ prompt: 'échec', mode: 'custom', models: [TEST_MODELS[0].id, TEST_MODELS[2].id] });
    fake.reset();
  });
  afterAll(() => harness.close());

  const cases: {
    name: string;
    method: string;
    path: () => string;
    body?: unknown;
    headers?: Record<string, string>;
    status: number;
    code: string;
  }[] = [
    { name: 'invalid JSON', method: 'POST', path: () => '/api/v1/duels', body: '{"prompt": "a",', status: 400, code: 'invalid_json' },
    { name: 'a JSON array', method: 'POST', path: () => '/api/v1/duels', body: '[]', status: 400, code: 'invalid_request' },
    // Bytes that are not UTF-8 (a lone 0xFF, a cut 3-byte sequence, an overlong NUL) would be stored as U+FFFD.
    ...[
      ['a prompt with a byte that is not UTF-8', () => '/api/v1/duels', [0xff]],
      ['a prompt with a cut UTF-8 sequence', () => '/api/v1/duels', [0xe2, 0x82]],
      ['a vote comment with an overlong NUL', () => `/api/v1/duels/${readyDuel}/vote`, [0xc0, 0x80]],
    ].map(([name, path, bytes]) => ({
      name: name as string,
      method: 'POST',
      path: path as () => string,
      body: Buffer.concat([
        Buffer.from(String(name).includes('vote') ? '{"choice": "a", "comments": {"a": "' : '{"prompt": "'),
        Buffer.from(bytes as number[]),
        Buffer.from(String(name).includes('vote') ? '"}}' : '"}'),
      ]),
      status: 400,
      code: 'invalid_json',
    })),
    {
      name: 'an unknown field',
      method: 'POST',
      path: () => '/api/v1/duels',
      body: { prompt: 'a', temperature: 2 },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'a wrongly typed field',
      method: 'POST',
      path: () => '/api/v1/duels',
      body: { prompt: 42 },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'an unknown mode',
      method: 'POST',
      path: () => '/api/v1/duels',
      body: { prompt: 'a', mode: 'chaos' },
      status: 400,
      code: 'invalid_request',
    },
    { name: 'an empty prompt', method: 'POST', path: () => '/api/v1/duels', body: { prompt: '' }, status: 400, code: 'invalid_request' },
    {
      name: 'a blank prompt',
      method: 'POST',
      path: () => '/api/v1/duels',
      body: { prompt: '  \n ' },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'an oversize prompt',
      method: 'POST',
      path: () => '/api/v1/duels',
      body: { prompt: 'x'.repeat(501) },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'a huge body',
      method: 'POST',
      path: () => '/api/v1/duels',
      body: { prompt: 'x'.repeat(200_000) },
      status: 413,
      code: 'payload_too_large',
    },
    {
      name: 'unknown custom ids',
      method: 'POST',
      path: () => '/api/v1/duels',
      body: { prompt: 'a', mode: 'custom', models: ['nope-1b'] },
      status: 400,
      code: 'unknown_models',
    },
    {
      name: 'custom without models',
      method: 'POST',
      path: () => '/api/v1/duels',
      body: { prompt: 'a', mode: 'custom' },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'models without custom',
      method: 'POST',
      path: () => '/api/v1/duels',
      body: { prompt: 'a', models: [TEST_MODELS[1].id] },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'the same model twice',
      method: 'POST',
      path: () => '/api/v1/duels',
      body: { prompt: 'a', mode: 'custom', models: [TEST_MODELS[1].id, TEST_MODELS[1].id] },
      status: 400,
      code: 'invalid_request',
    },
    { name: 'an unknown duel', method: 'GET', path: () => '/api/v1/duels/AAAAAAAAAAAAAAAAAAAAAA', status: 404, code: 'duel_not_found' },
    { name: 'a malformed duel id', method: 'GET', path: () => '/api/v1/duels/..%2F..', status: 400, code: 'invalid_request' },
    {
      name: 'a vote on an unknown duel',
      method: 'POST',
      path: () => '/api/v1/duels/AAAAAAAAAAAAAAAAAAAAAA/vote',
      body: { choice: 'a' },
      status: 404,
      code: 'duel_not_found',
    },
    {
      name: 'a stream of an unknown turn',
      method: 'GET',
      path: () => `/api/v1/duels/${readyDuel}/stream?turn=7`,
      status: 404,
      code: 'turn_not_found',
    },
    {
      name: 'a bad Last-Event-ID',
      method: 'GET',
      path: () => `/api/v1/duels/${readyDuel}/stream`,
      headers: { 'last-event-id': 'abc' },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'an unknown vote choice',
      method: 'POST',
      path: () => `/api/v1/duels/${readyDuel}/vote`,
      body: { choice: 'c' },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'an unknown tag',
      method: 'POST',
      path: () => `/api/v1/duels/${readyDuel}/vote`,
      body: { choice: 'a', tags: { a: ['great'] } },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'a second vote',
      method: 'POST',
      path: () => `/api/v1/duels/${votedDuel}/vote`,
      body: { choice: 'b' },
      status: 409,
      code: 'already_voted',
    },
    {
      name: 'a vote on a failed duel',
      method: 'POST',
      path: () => `/api/v1/duels/${failedDuel}/vote`,
      body: { choice: 'b' },
      status: 409,
      code: 'duel_failed',
    },
    {
      name: 'a reaction on a failed turn',
      method: 'POST',
      path: () => `/api/v1/duels/${failedDuel}/reactions`,
      body: { side: 'a', turn: 1, value: 'like' },
      status: 409,
      code: 'duel_failed',
    },
    {
      name: 'a reaction on an unknown turn',
      method: 'POST',
      path: () => `/api/v1/duels/${readyDuel}/reactions`,
      body: { side: 'a', turn: 3, value: 'like' },
      status: 404,
      code: 'turn_not_found',
    },
    {
      name: 'a reaction on an unknown side',
      method: 'POST',
      path: () => `/api/v1/duels/${readyDuel}/reactions`,
      body: { side: 'c', turn: 1, value: 'like' },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'an empty report',
      method: 'POST',
      path: () => `/api/v1/duels/${readyDuel}/report`,
      body: { reason: ' ' },
      status: 400,
      code: 'invalid_request',
    },
    // PostgreSQL refuses NUL in text: refused here on both stores, before anything is written.
    {
      name: 'a NUL in a prompt',
      method: 'POST',
      path: () => '/api/v1/duels',
      body: { prompt: 'a\u0000b' },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'a NUL in a follow-up',
      method: 'POST',
      path: () => `/api/v1/duels/${readyDuel}/messages`,
      body: { prompt: 'suite\u0000' },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'a NUL in a vote comment',
      method: 'POST',
      path: () => `/api/v1/duels/${readyDuel}/vote`,
      body: { choice: 'a', comments: { a: 'x\u0000' } },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'a NUL in a reaction comment',
      method: 'POST',
      path: () => `/api/v1/duels/${readyDuel}/reactions`,
      body: { side: 'a', turn: 1, value: 'dislike', comment: '\u0000' },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'a report of an unknown category',
      method: 'POST',
      path: () => `/api/v1/duels/${readyDuel}/report`,
      body: { category: 'spam', reason: 'x' },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'a report of "other" without a reason',
      method: 'POST',
      path: () => `/api/v1/duels/${readyDuel}/report`,
      body: { category: 'other', turn: 1, side: 'a' },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'a report of "other" whose reason is only zero-width characters',
      method: 'POST',
      path: () => `/api/v1/duels/${readyDuel}/report`,
      body: { category: 'other', reason: '\u200B\u2060 \u200D' },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'a report of an answer named by its side alone',
      method: 'POST',
      path: () => `/api/v1/duels/${readyDuel}/report`,
      body: { category: 'harmful', side: 'a' },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'a report of an answer of an unknown turn',
      method: 'POST',
      path: () => `/api/v1/duels/${readyDuel}/report`,
      body: { category: 'misleading', turn: 3, side: 'a' },
      status: 404,
      code: 'turn_not_found',
    },
    {
      name: 'a NUL in a report',
      method: 'POST',
      path: () => `/api/v1/duels/${readyDuel}/report`,
      body: { reason: 'spam\u0000' },
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'a lone surrogate in a prompt',
      method: 'POST',
      path: () => '/api/v1/duels',
      body: '{"prompt": "bonjour \\ud800"}',
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'a prompt of invisible characters only',
      method: 'POST',
      path: () => '/api/v1/duels',
      body: { prompt: '\u200b\u2060\ufeff\u00a0\u3000' },
      status: 400,
      code: 'invalid_request',
    },
    // PostgreSQL's turn column is a 32-bit integer: a larger turn number answered 500 there.
    {
      name: 'a stream of a turn past any integer column',
      method: 'GET',
      path: () => `/api/v1/duels/${readyDuel}/stream?turn=2147483648`,
      status: 400,
      code: 'invalid_request',
    },
    {
      name: 'a reaction on a turn past any integer column',
      method: 'POST',
      path: () => `/api/v1/duels/${readyDuel}/reactions`,
      body: { side: 'a', turn: 2147483648, value: 'like' },
      status: 400,
      code: 'invalid_request',
    },
    { name: 'an unknown route', method: 'GET', path: () => '/api/v1/nothing', status: 404, code: 'not_found' },
    {
      name: 'the admin API without a session or token',
      method: 'GET',
      path: () => '/api/v1/admin/upstream-errors',
      status: 401,
      code: 'unauthorized',
    },
    {
      name: 'a forged console session cookie',
      method: 'GET',
      path: () => '/api/v1/admin/review',
      headers: { cookie: 'agora_staff=forged-session-token' },
      status: 401,
      code: 'unauthorized',
    },
  ];

  it.each(cases)('$name → $status $code', async ({ method, path, body, headers, status, code }) => {
    const before = await countRows(harness.store.location);
    const response = await harness.client.request(method, path(), body, headers);
    expect(response.status).toBe(status);
    expect(errorBodySchema.parse(response.json).error.code).toBe(code);
    expect(response.headers.get('x-request-id')).toMatch(/^[\w-]+$/);
    expect(await countRows(harness.store.location)).toEqual(before);
  });

  it('a follow-up whose turn cannot be stored leaves the duel as it was (the update and the insert are one transaction)', async () => {
    const { client } = harness;
    const created = await client.request('POST', '/api/v1/duels', { prompt: 'Bonjour' });
    const duelId = created.json.id as string;
    await client.stream(duelId);
    // A stray row at the next turn's key makes the turn's insert fail after the duel's update.
    const db = openDatabase(harness.store.location);
    try {
      await db
        .insertInto('turns')
        .values({
          duel_id: duelId,
          turn: 2,
          prompt: 'x',
          status: 'complete',
          error_code: null,
          frames: null,
          started_at: '2026-01-01T00:00:00.000Z',
          ended_at: null,
        })
        .execute();
    } finally {
      await db.destroy();
    }
    const response = await client.request('POST', `/api/v1/duels/${duelId}/messages`, { prompt: 'Et alors ?' });
    expect(response.status).toBe(500);
    expect(await harness.arena.store.duels.findById(duelId)).toMatchObject({ status: 'ready', turnCount: 1 });
  });

  it('a duel is its visitor’s: anyone else (another cookie, or none) finds nothing to read, continue, react to, vote on or report', async () => {
    const { client } = harness;
    const created = await client.request('POST', '/api/v1/duels', { prompt: 'Ma conversation' });
    const duelId = created.json.id as string;
    await client.stream(duelId);
    const before = await countRows(harness.store.location);
    const stranger = new ArenaClient(harness.baseUrl);
    await stranger.request('GET', '/api/v1/models'); // no cookie yet: the first request to the duel API sets one
    for (const intruder of [stranger, new ArenaClient(harness.baseUrl)]) {
      for (const [method, path, body] of [
        ['GET', `/api/v1/duels/${duelId}`, undefined],
        ['GET', `/api/v1/duels/${duelId}/stream`, undefined],
        ['POST', `/api/v1/duels/${duelId}/messages`, { prompt: 'Et moi ?' }],
        ['POST', `/api/v1/duels/${duelId}/reactions`, { side: 'a', turn: 1, value: 'like' }],
        ['POST', `/api/v1/duels/${duelId}/vote`, { choice: 'a' }],
        ['POST', `/api/v1/duels/${duelId}/report`, { reason: 'spam' }],
      ] as const) {
        const response = await intruder.request(method, path, body);
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(errorBodySchema.parse(response.json).error.code).toBe('duel_not_found');
      }
    }
    expect(await countRows(harness.store.location)).toEqual(before);
    // Its visitor reports it once, and each answer once: a second report of either adds nothing.
    expect((await client.request('POST', `/api/v1/duels/${duelId}/report`, { reason: 'données personnelles' })).status).toBe(202);
    expect((await client.request('POST', `/api/v1/duels/${duelId}/report`, { reason: 'encore' })).status).toBe(202);
    const answerReport = { category: 'personal_data', turn: 1, side: 'a' };
    expect((await client.request('POST', `/api/v1/duels/${duelId}/report`, answerReport)).status).toBe(202);
    expect((await client.request('POST', `/api/v1/duels/${duelId}/report`, { ...answerReport, category: 'harmful' })).status).toBe(202);
    expect((await client.request('POST', `/api/v1/duels/${duelId}/report`, { category: 'misleading', turn: 1, side: 'b' })).status).toBe(
      202,
    );
    expect((await countRows(harness.store.location)).reports).toBe(before.reports! + 3);
    expect((await client.request('POST', `/api/v1/duels/${duelId}/vote`, { choice: 'a' })).status).toBe(200);
  });

  it('a follow-up past the turn limit is refused', async () => {
    const { client } = harness;
    expect((await client.request('POST', `/api/v1/duels/${readyDuel}/messages`, { prompt: 'deux' })).status).toBe(201);
    await client.stream(readyDuel, { turn: 2 });
    const before = await countRows(harness.store.location);
    const third = await client.request('POST', `/api/v1/duels/${readyDuel}/messages`, { prompt: 'trois' });
    expect(third).toMatchObject({ status: 409, json: { error: { code: 'turn_limit_reached' } } });
    expect(await countRows(harness.store.location)).toEqual(before);
  });

  it('a follow-up while a turn still streams is refused', async () => {
    const { client, fake } = harness;
    fake.defaultBehaviour = { tokensPerSecond: 20 };
    const created = await client.request('POST', '/api/v1/duels', { prompt: 'lent' });
    const early = await client.request('POST', `/api/v1/duels/${created.json.id}/messages`, { prompt: 'trop tôt' });
    expect(early).toMatchObject({ status: 409, json: { error: { code: 'turn_in_progress' } } });
    const vote = await client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'a' });
    expect(vote).toMatchObject({ status: 409, json: { error: { code: 'turn_in_progress' } } });
    const reaction = await client.request('POST', `/api/v1/duels/${created.json.id}/reactions`, { side: 'a', turn: 1, value: 'like' });
    expect(reaction).toMatchObject({ status: 409, json: { error: { code: 'turn_in_progress' } } });
    fake.defaultBehaviour = {};
    await harness.arena.duels.drain();
  });

  it('concurrent votes on one duel record exactly one', async () => {
    const { client } = harness;
    const created = await client.request('POST', '/api/v1/duels', { prompt: 'course' });
    await client.stream(created.json.id);
    const answers = await Promise.all(
      ['a', 'b', 'tie', 'both_bad', 'a', 'b'].map((choice) => client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice })),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409 && answer.json.error.code === 'already_voted')).toHaveLength(5);
  });
});
