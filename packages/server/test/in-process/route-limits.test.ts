import { errorBodySchema } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RATE_LIMIT_VARIABLES } from '../../src/config/config';
import { buildOpenApiDocument } from '../../src/http/openapi';
import { FLOOD_REFUSAL_DELAY_MS, isUnlimitedRoute } from '../../src/http/middleware/rate-limit';
import { TEST_MODELS } from '../test-arena';
import { type InProcessArena, type InProcessResponse, startInProcessArena } from './harness';

/**
 * Every public route has a rate limit (issue 31, point 4; docs/operations.md#rate-limits): the
 * router's own list of routes is walked, so that a route added without a limit fails here. With
 * every limit at 1, the second request to any route must be refused, whatever it asks for (an
 * unknown duel, an invalid body): the limit comes first on its route and counts every request alike.
 */

/** `METHOD path` of every route with a handler of its own; `*` is the web app's files (when built). */
function routesOf(arena: InProcessArena): { method: string; path: string }[] {
  const seen = new Map<string, { method: string; path: string }>();
  for (const { method, path } of arena.arena.app.routes) {
    if (method === 'ALL' || (path.endsWith('/*') && path !== '/*')) continue;
    seen.set(`${method} ${path}`, { method, path });
  }
  return [...seen.values()];
}

/** A path the route answers, its parameters filled with an id of no duel. */
const concretePath = (path: string) => (path === '*' || path === '/*' ? '/leaderboard' : path.replace(/:\w+/g, 'no-such-id'));

const expectRefused = (answer: InProcessResponse, route: string) => {
  expect(answer.status, `${route} answered ${answer.status} past its limit`).toBe(429);
  expect(errorBodySchema.parse(answer.json).error.code).toBe('rate_limited');
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
};

describe('every public route is rate limited', () => {
  let harness: InProcessArena;
  beforeAll(async () => {
    harness = await startInProcessArena(Object.fromEntries(RATE_LIMIT_VARIABLES.map((name) => [name, '1'])));
  });
  afterAll(() => harness.close());

  it('walks the router: the second request to each public route is 429 with Retry-After', async () => {
    // The routes without a limit, each for its reason, are isUnlimitedRoute's: /healthz, /metrics, the admin API.
    const routes = routesOf(harness).filter(({ path }) => !isUnlimitedRoute(path));
    // The walk covers what it should: the duel API, the reads and the challenge at least.
    expect(routes.map(({ method, path }) => `${method} ${path}`)).toEqual(
      expect.arrayContaining([
        'POST /api/v1/duels/:id/reactions',
        'GET /api/v1/leaderboard',
        'GET /api/v1/challenge',
        'GET /api/v1/duels/:id/stream',
      ]),
    );
    // Routes side by side (a client this far over its limits waits a second for each refusal), each
    // route's two requests in turn; a visitor of its own each time: the address's limit alone must
    // refuse a script without cookies.
    await Promise.all(
      routes.map(async ({ method, path }) => {
        const body = method === 'GET' ? undefined : {};
        await harness.visitor().request(method, concretePath(path), body);
        expectRefused(await harness.visitor().request(method, concretePath(path), body), `${method} ${path}`);
      }),
    );
  });

  it('documents the 429 and its Retry-After on every limited route of the OpenAPI document, and on no other', () => {
    const paths = (buildOpenApiDocument(1000) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }).paths;
    for (const [path, operations] of Object.entries(paths))
      for (const [method, { responses }] of Object.entries(operations))
        expect(responses['429'] !== undefined, `${method.toUpperCase()} ${path}`).toBe(!isUnlimitedRoute(path));
    expect(paths['/api/v1/leaderboard']!.get!.responses['429']).toMatchObject({ headers: { 'Retry-After': {} } });
  });

  it('leaves /healthz unlimited: a probe is never refused, and requests at once share one store check', async () => {
    for (let index = 0; index < 20; index++) expect((await harness.visitor().request('GET', '/healthz')).status).toBe(200);
    const ping = vi.spyOn(harness.arena.store, 'ping');
    try {
      const answers = await Promise.all(Array.from({ length: 50 }, () => harness.visitor().request('GET', '/healthz')));
      expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
      expect(ping.mock.calls.length).toBeLessThan(5);
    } finally {
      ping.mockRestore();
    }
  });
});

describe('a client far over its limit', () => {
  let harness: InProcessArena;
  beforeAll(async () => {
    harness = await startInProcessArena({ AGORA_LIMIT_READS_PER_MINUTE_PER_ADDRESS: '2' });
  });
  afterAll(() => harness.close());

  it('waits a second for each refusal once refused more often than its limit allows; before that, none', async () => {
    const timed = async () => {
      const started = performance.now();
      const answer = await harness.visitor().request('GET', '/api/v1/stats');
      return { status: answer.status, ms: performance.now() - started, retryAfter: Number(answer.headers.get('retry-after')) };
    };
    const answers = [];
    for (let index = 0; index < 5; index++) answers.push(await timed());
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429, 429, 429]);
    // Two refusals (as many as the limit) come at once; the third, past twice the limit, a second later.
    expect(answers[3]!.ms).toBeLessThan(500);
    expect(answers[4]!.ms).toBeGreaterThanOrEqual(FLOOD_REFUSAL_DELAY_MS - 5);
    expect(answers[4]!.retryAfter).toBeGreaterThan(0);
    expect(answers[4]!.retryAfter).toBeLessThanOrEqual(60);
  });
});

describe('a limit tells nothing about a duel', () => {
  let harness: InProcessArena;
  beforeAll(async () => {
    harness = await startInProcessArena({ AGORA_LIMIT_REACTIONS_PER_MINUTE: '3', AGORA_LIMIT_READS_PER_MINUTE_PER_ADDRESS: '0' });
  });
  afterAll(() => harness.close());

  it('reactions on its own duel, on another visitor’s and on none count alike', async () => {
    const models: [string, string] = [TEST_MODELS[0].id, TEST_MODELS[1].id];
    const owner = harness.visitor();
    const { id: own } = await owner.playedDuel(models);
    const { id: others } = await harness.visitor().playedDuel(models);
    const reaction = { side: 'a', turn: 1, value: 'like' };
    const statuses = [];
    for (const duel of [others, 'no-such-duel', own, own])
      statuses.push((await owner.request('POST', `/api/v1/duels/${duel}/reactions`, reaction)).status);
    // Another visitor's duel and an unknown one answer alike (404) and count as the visitor's own.
    expect(statuses).toEqual([404, 404, 200, 429]);
  });
});
