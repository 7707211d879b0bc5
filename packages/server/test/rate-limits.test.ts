import { errorBodySchema, proofChallengeSchema } from '@agora/contract';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './test-db';
import { parseCatalogue } from '../src/config/catalogue';
import { FLOOD_REFUSAL_DELAY_MS } from '../src/http/middleware/rate-limit';
import { type ArenaClient, ClientAt, TEST_MODELS, type TestArena, startTestArena, testCatalogueYaml } from './test-arena';

/** Small limits, and the loopback trusted as a proxy: each test speaks for its own client address. */
const LIMITS = {
  AGORA_LIMIT_PROMPTS_PER_HOUR: '3',
  AGORA_LIMIT_PROMPTS_PER_HOUR_PER_ADDRESS: '5',
  AGORA_LIMIT_VOTES_PER_MINUTE: '2',
  AGORA_LIMIT_VOTES_PER_MINUTE_PER_ADDRESS: '100',
  AGORA_LIMIT_REPORTS_PER_HOUR: '1',
  AGORA_TRUSTED_PROXIES: '127.0.0.1,::1',
};

const expectLimited = (response: { status: number; json: unknown; headers: Headers }, maxSeconds: number) => {
  expect(response.status).toBe(429);
  expect(errorBodySchema.parse(response.json).error.code).toBe('rate_limited');
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
};

describe.each(DIALECTS)('rate limits ($name)', (dialect) => {
  let harness: TestArena;
  beforeAll(async () => {
    harness = await startTestArena(dialect, { environment: LIMITS });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
  });
  afterAll(() => harness.close());

  it('a visitor gets its prompts per hour (new duels and follow-ups alike), then 429 with Retry-After', async () => {
    const visitor = new ClientAt(harness.baseUrl, '198.51.100.1');
    const first = await visitor.request('POST', '/api/v1/duels', { prompt: 'Un' });
    await visitor.stream(first.json.id);
    expect((await visitor.request('POST', `/api/v1/duels/${first.json.id}/messages`, { prompt: 'Deux' })).status).toBe(201);
    await visitor.stream(first.json.id, { turn: 2 });
    expect((await visitor.request('POST', '/api/v1/duels', { prompt: 'Trois' })).status).toBe(201);
    expectLimited(await visitor.request('POST', '/api/v1/duels', { prompt: 'Quatre' }), 3600);
    expectLimited(await visitor.request('POST', `/api/v1/duels/${first.json.id}/messages`, { prompt: 'Cinq' }), 3600);
    // Another visitor at another address is not held back.
    expect((await new ClientAt(harness.baseUrl, '198.51.100.2').request('POST', '/api/v1/duels', { prompt: 'Un' })).status).toBe(201);
  });

  it('a script without cookies is a new visitor each time, and still one address', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 7; index++)
      statuses.push((await new ClientAt(harness.baseUrl, '203.0.113.9').request('POST', '/api/v1/duels', { prompt: `n°${index}` })).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
  });

  it('a visitor gets its votes per minute, and one report an hour', async () => {
    const visitor = new ClientAt(harness.baseUrl, '192.0.2.77');
    const duels: string[] = [];
    for (const prompt of ['A', 'B', 'C']) {
      const created = await visitor.request('POST', '/api/v1/duels', { prompt });
      await visitor.stream(created.json.id);
      duels.push(created.json.id as string);
    }
    expect((await visitor.request('POST', `/api/v1/duels/${duels[0]}/vote`, { choice: 'a' })).status).toBe(200);
    expect((await visitor.request('POST', `/api/v1/duels/${duels[1]}/vote`, { choice: 'b' })).status).toBe(200);
    expectLimited(await visitor.request('POST', `/api/v1/duels/${duels[2]}/vote`, { choice: 'a' }), 60);
    expect((await visitor.request('POST', `/api/v1/duels/${duels[0]}/report`, { reason: 'un souci' })).status).toBe(202);
    expectLimited(await visitor.request('POST', `/api/v1/duels/${duels[1]}/report`, { reason: 'un autre' }), 3600);
  });
});

/** Reactions, reads and challenges: small limits, and proofs of work quick to solve. */
const READ_LIMITS = {
  AGORA_LIMIT_REACTIONS_PER_MINUTE: '3',
  AGORA_LIMIT_REACTIONS_PER_MINUTE_PER_ADDRESS: '5',
  AGORA_LIMIT_READS_PER_MINUTE_PER_ADDRESS: '6',
  AGORA_LIMIT_CHALLENGES_PER_MINUTE_PER_ADDRESS: '3',
  AGORA_PROOF_OF_WORK: '20',
  AGORA_TRUSTED_PROXIES: '127.0.0.1,::1',
};

/** A duel of its own for `visitor`, with a solved proof of work, and its first turn read. */
async function playedDuel(visitor: ArenaClient): Promise<string> {
  const { challenge } = proofChallengeSchema.parse((await visitor.request('GET', '/api/v1/challenge')).json);
  const solution = (await solveChallenge({ challenge, deriveKey }))!;
  const created = await visitor.request('POST', '/api/v1/duels', { prompt: 'Bonjour', proof: { challenge, solution } });
  expect(created.status).toBe(201);
  await visitor.stream(created.json.id);
  return created.json.id as string;
}

describe.each(DIALECTS)('limits on reactions, reads and challenges ($name)', (dialect) => {
  let harness: TestArena;
  beforeAll(async () => {
    harness = await startTestArena(dialect, { environment: READ_LIMITS });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
  });
  afterAll(() => harness.close());

  it('a visitor gets 3 reactions a minute, then 429; its address 5, an unknown duel counting as any', async () => {
    const visitor = new ClientAt(harness.baseUrl, '198.51.100.20');
    const duel = await playedDuel(visitor);
    const reaction = { side: 'a', turn: 1, value: 'like' };
    for (let index = 0; index < 3; index++)
      expect((await visitor.request('POST', `/api/v1/duels/${duel}/reactions`, reaction)).status).toBe(200);
    expectLimited(await visitor.request('POST', `/api/v1/duels/${duel}/reactions`, reaction), 60);
    // Another visitor at the same address (whose count holds all 4 so far): a reaction on a duel
    // not its own is a 404, and counts the same; the next, on an unknown duel, is the address's sixth.
    const neighbour = new ClientAt(harness.baseUrl, '198.51.100.20');
    expect((await neighbour.request('POST', `/api/v1/duels/${duel}/reactions`, reaction)).status).toBe(404);
    expectLimited(await neighbour.request('POST', '/api/v1/duels/no-such-duel/reactions', reaction), 60);
  });

  it('an address gets 6 reads a minute (leaderboard, its history, models, stats alike), then 429', async () => {
    const reader = new ClientAt(harness.baseUrl, '198.51.100.30');
    const reads = ['/api/v1/leaderboard', '/api/v1/leaderboard/history?model=kestrix-8b', '/api/v1/models', '/api/v1/stats'];
    const statuses: number[] = [];
    for (let index = 0; index < 6; index++) statuses.push((await reader.request('GET', reads[index % reads.length]!)).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expectLimited(await reader.request('GET', '/api/v1/leaderboard'), 60);
    // A new cookie does not help a script; another address reads on.
    expectLimited(await new ClientAt(harness.baseUrl, '198.51.100.30').request('GET', '/api/v1/leaderboard?style=controlled'), 60);
    expect((await new ClientAt(harness.baseUrl, '198.51.100.31').request('GET', '/api/v1/leaderboard')).status).toBe(200);
  });

  it('a script past twice its limit waits a second for each refusal', async () => {
    const script = new ClientAt(harness.baseUrl, '198.51.100.25');
    const reaction = { side: 'a', turn: 1, value: 'like' };
    const timings: { status: number; ms: number }[] = [];
    for (let index = 0; index < 12; index++) {
      const started = performance.now();
      const { status } = await script.request('POST', '/api/v1/duels/no-such-duel/reactions', reaction);
      timings.push({ status, ms: performance.now() - started });
    }
    // The address allows 5: the next 5 refusals come at once, the 11th and 12th (past 10) a second later each.
    expect(timings.map((timing) => timing.status)).toEqual([404, 404, 404, 429, 429, 429, 429, 429, 429, 429, 429, 429]);
    expect(Math.max(...timings.slice(0, 10).map((timing) => timing.ms))).toBeLessThan(FLOOD_REFUSAL_DELAY_MS);
    for (const timing of timings.slice(10)) expect(timing.ms).toBeGreaterThanOrEqual(FLOOD_REFUSAL_DELAY_MS - 5);
  });

  it('an IPv6 client is counted by its /64: a new address of the same /64 for each read is one address', async () => {
    const statuses: number[] = [];
    for (let index = 1; index <= 7; index++)
      statuses.push((await new ClientAt(harness.baseUrl, `2001:db8:31:4::${index.toString(16)}`).request('GET', '/api/v1/stats')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    expect((await new ClientAt(harness.baseUrl, '2001:db8:31:5::1').request('GET', '/api/v1/stats')).status).toBe(200);
  });

  it('an address gets 3 challenges a minute, then 429', async () => {
    const client = new ClientAt(harness.baseUrl, '198.51.100.40');
    for (let index = 0; index < 3; index++) expect((await client.request('GET', '/api/v1/challenge')).status).toBe(200);
    expectLimited(await client.request('GET', '/api/v1/challenge'), 60);
  });
});

/** Zephyrine and Brontal cost a lot: 100 characters an hour per visitor for them. */
const EXPENSIVE = ['zephyrine-405b', 'brontal-120b'];
const expensiveCatalogue = (baseUrl: string) =>
  parseCatalogue(
    testCatalogueYaml(baseUrl).replace(/( {2}- id: (\S+)\n)/g, (entry, _line, id: string) =>
      EXPENSIVE.includes(id) ? `${entry}    expensive: true\n` : entry,
    ),
    'test-models.yaml',
    {},
  );
const upstreamOf = (id: string) => TEST_MODELS.find((model) => model.id === id)!.upstream;

describe.each(DIALECTS)('characters sent to costly models ($name)', (dialect) => {
  let harness: TestArena;
  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      environment: { AGORA_LIMIT_EXPENSIVE_CHARS_PER_HOUR: '100', AGORA_TRUSTED_PROXIES: '127.0.0.1,::1' },
      catalogue: expensiveCatalogue,
    });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
  });
  afterAll(() => harness.close());

  it('a visitor who chose a costly model gets its characters, then 429; the conversation sent again counts', async () => {
    expect(
      expensiveCatalogue('http://127.0.0.1:9')
        .filter((model) => model.entry.expensive)
        .map((model) => model.entry.id),
    ).toEqual(EXPENSIVE);
    const visitor = new ClientAt(harness.baseUrl, '198.51.100.80');
    const chosen = { mode: 'custom', models: ['zephyrine-405b', 'miravel-24b'] };
    const first = await visitor.request('POST', '/api/v1/duels', { ...chosen, prompt: 'x'.repeat(40) });
    expect(first.status).toBe(201);
    const frames = await visitor.stream(first.json.id);
    const replyChars = frames.reduce((sum, { event }) => sum + (event.type === 'text-delta' ? event.text.length : 0), 0);
    // 40 + 10 characters would fit in 100; the follow-up also sends the first prompt and the replies again, and does not.
    expect(replyChars).toBeGreaterThan(2 * 60);
    expectLimited(await visitor.request('POST', `/api/v1/duels/${first.json.id}/messages`, { prompt: 'y'.repeat(10) }), 3600);
    expectLimited(await visitor.request('POST', '/api/v1/duels', { ...chosen, prompt: 'z'.repeat(61) }), 3600);
    // A cheap pair is not counted, and another visitor has its own budget.
    expect(
      (await visitor.request('POST', '/api/v1/duels', { mode: 'custom', models: ['miravel-24b', 'kestrix-8b'], prompt: 'w'.repeat(61) }))
        .status,
    ).toBe(201);
    expect(
      (await new ClientAt(harness.baseUrl, '198.51.100.81').request('POST', '/api/v1/duels', { ...chosen, prompt: 'v'.repeat(61) })).status,
    ).toBe(201);
    await harness.arena.duels.drain();
  });

  it('past its budget a visitor still gets duels, drawn among the other models', async () => {
    const visitor = new ClientAt(harness.baseUrl, '198.51.100.90');
    expect(
      (await visitor.request('POST', '/api/v1/duels', { mode: 'custom', models: ['brontal-120b', 'kestrix-8b'], prompt: 'x'.repeat(90) }))
        .status,
    ).toBe(201);
    await harness.arena.duels.drain();
    const before = EXPENSIVE.map((id) => harness.fake.requestsFor(upstreamOf(id)).length);
    for (let index = 0; index < 12; index++)
      expect((await visitor.request('POST', '/api/v1/duels', { mode: 'random', prompt: `${index} ${'q'.repeat(30)}` })).status).toBe(201);
    await harness.arena.duels.drain();
    expect(EXPENSIVE.map((id) => harness.fake.requestsFor(upstreamOf(id)).length)).toEqual(before);
    // A visitor with budget left draws them as before (12 draws that all miss both of 6 models: about 1 in 10^5).
    const fresh = new ClientAt(harness.baseUrl, '198.51.100.91');
    for (let index = 0; index < 12; index++) await fresh.request('POST', '/api/v1/duels', { mode: 'random', prompt: `${index}` });
    await harness.arena.duels.drain();
    expect(EXPENSIVE.map((id) => harness.fake.requestsFor(upstreamOf(id)).length).some((count, index) => count > before[index]!)).toBe(
      true,
    );
  });
});

describe('rate limits across two instances on one PostgreSQL', () => {
  const postgres = DIALECTS.find((dialect) => dialect.name === 'postgres');
  it.runIf(postgres)('count a visitor’s prompts on both instances together', async () => {
    const first = await startTestArena(postgres!, { environment: LIMITS });
    const second = await startTestArena(postgres!, { environment: LIMITS, store: first.store });
    try {
      const onFirst = new ClientAt(first.baseUrl, '198.51.100.50');
      expect((await onFirst.request('POST', '/api/v1/duels', { prompt: 'Un' })).status).toBe(201);
      const onSecond = new ClientAt(second.baseUrl, '198.51.100.50', onFirst.visitorCookie);
      expect((await onSecond.request('POST', '/api/v1/duels', { prompt: 'Deux' })).status).toBe(201);
      expect((await onFirst.request('POST', '/api/v1/duels', { prompt: 'Trois' })).status).toBe(201);
      expectLimited(await onSecond.request('POST', '/api/v1/duels', { prompt: 'Quatre' }), 3600);
      await first.arena.duels.drain();
      await second.arena.duels.drain();
    } finally {
      await second.close();
      await first.close();
    }
  });

  it.runIf(postgres)('count reactions on both instances together, and reads on each instance apart', async () => {
    const environment = { ...READ_LIMITS, AGORA_PROOF_OF_WORK: '0' };
    const first = await startTestArena(postgres!, { environment });
    const second = await startTestArena(postgres!, { environment, store: first.store });
    try {
      const reaction = { side: 'a', turn: 1, value: 'like' };
      const onFirst = new ClientAt(first.baseUrl, '198.51.100.60');
      const onSecond = new ClientAt(second.baseUrl, '198.51.100.60');
      const statuses: number[] = [];
      for (const client of [onFirst, onSecond, onFirst, onSecond, onFirst, onSecond])
        statuses.push((await client.request('POST', '/api/v1/duels/no-such-duel/reactions', reaction)).status);
      expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
      // A read costs its instance's CPU, not a row: each instance counts its own, without a database write.
      for (const client of [onFirst, onSecond])
        for (let index = 0; index < 6; index++) expect((await client.request('GET', '/api/v1/stats')).status).toBe(200);
      expectLimited(await onFirst.request('GET', '/api/v1/stats'), 60);
      expectLimited(await onSecond.request('GET', '/api/v1/stats'), 60);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
