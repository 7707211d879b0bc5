import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inlineRankingComputer } from '../../src/adapters/ranking-worker/ranking-computer';
import { type CatalogueModel, parseCatalogue } from '../../src/config/catalogue';
import { loadConfig } from '../../src/config/config';
import { type Arena, createArena } from '../../src/main';
import type { ModelClient, ModelStreamPart } from '../../src/providers/spec';
import { OperationsService } from '../../src/services/operations.service';
import { TEST_MODELS, testCatalogueYaml } from '../test-arena';
import { type InProcessResponse, ScriptedModels, TestRuntime, Visitor } from './harness';

/**
 * What operators ask of a running arena, in process (services/operations.service.ts): /healthz,
 * the admin API's upstream errors and served-model mismatches over a window of the test clock, and
 * the retention purge of visitor traces. One arena for the file, whose providers substitute a model
 * for one catalogue entry; each test reads only its own models and duels, so they pass in any order.
 */

const TOKEN = 'operations-admin-token-0000';
const admin = { authorization: `Bearer ${TOKEN}` };
const [zephyrine, brontal, miravel, kestrix] = TEST_MODELS.map((model) => model.id) as [string, string, string, string];
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** What each provider says it served, by catalogue id: another model for Kestrix, a dated release of the same one for Miravel. */
const SERVED: Record<string, string> = {
  [kestrix]: 'quorvex/kestrix-nano-lite',
  [miravel]: 'tarvonia/miravel-swift-20251104',
};

let arena: Arena;
let models: ScriptedModels;
let runtime: TestRuntime;
beforeAll(async () => {
  ({ arena, models, runtime } = await startSubstitutingArena());
});
afterAll(() => arena.close());

/** As `startInProcessArena` (harness.ts), with the scripted clients of {@link SERVED}'s models naming the model they served. */
async function startSubstitutingArena(): Promise<{ arena: Arena; models: ScriptedModels; runtime: TestRuntime }> {
  const settings = { DATABASE_URL: 'sqlite::memory:', AGORA_LOG_LEVEL: 'silent', AGORA_POSTPROCESS: 'false', AGORA_ADMIN_TOKEN: TOKEN };
  const catalogue = parseCatalogue(testCatalogueYaml('http://127.0.0.1:9'), 'test-models.yaml', settings);
  const scripted = new ScriptedModels();
  const clock = new TestRuntime();
  const clientOf = (model: CatalogueModel): ModelClient => {
    const client = scripted.clientOf(model);
    const served = SERVED[model.entry.id];
    if (!served) return client;
    return { ...client, doStream: async (options) => ({ stream: naming(served, (await client.doStream(options)).stream) }) };
  };
  const started = await createArena(loadConfig(settings), settings, {
    catalogue,
    logger: pino({ level: 'silent' }),
    runtime: clock,
    modelClient: clientOf,
    rankingComputer: inlineRankingComputer,
  });
  await started.leaderboardRefresh.idle();
  return { arena: started, models: scripted, runtime: clock };
}

/** The parts of a stream, with the provider's word on the model it served after the start. */
async function* naming(served: string, parts: AsyncIterable<ModelStreamPart>): AsyncGenerator<ModelStreamPart> {
  for await (const part of parts) {
    yield part;
    if (part.type === 'stream-start') yield { type: 'response-metadata', modelId: served };
  }
}

const request = (method: string, path: string, headers: Record<string, string> = admin): Promise<InProcessResponse> =>
  new Visitor(arena).request(method, path, undefined, headers);

/** Plays a duel of these models to its end and votes on it, as a visitor of its own; returns the duel's id and its visitor. */
async function votedDuel(pair: [string, string]): Promise<{ id: string; visitor: Visitor }> {
  const visitor = new Visitor(arena);
  const { id } = await visitor.playedDuel(pair);
  runtime.advance(5_000);
  const vote = await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'a' });
  if (vote.status !== 200) throw new Error(`vote refused: ${JSON.stringify(vote.json)}`);
  return { id, visitor };
}

describe('/healthz, in process', () => {
  it('answers ok while the store answers, and 503 when it does not', async () => {
    expect(await request('GET', '/healthz', {})).toMatchObject({ status: 200, json: { status: 'ok' } });
    const ping = vi.spyOn(arena.store, 'ping').mockRejectedValueOnce(new Error('the store is gone'));
    try {
      expect(await request('GET', '/healthz', {})).toMatchObject({ status: 503, json: { status: 'store_unavailable' } });
      expect(await request('GET', '/healthz', {})).toMatchObject({ status: 200, json: { status: 'ok' } });
    } finally {
      ping.mockRestore();
    }
  });

  it('asks the store once for a flood of checks that arrive while one runs, then again for the next', async () => {
    let answer: () => void = () => {};
    const ping = vi.spyOn(arena.store, 'ping').mockImplementationOnce(() => new Promise<void>((resolve) => (answer = resolve)));
    try {
      const flood = Array.from({ length: 20 }, () => request('GET', '/healthz', {}));
      // Every request has reached the check before the store answers.
      await vi.waitFor(() => expect(ping).toHaveBeenCalledTimes(1));
      await new Promise((resolve) => setImmediate(resolve));
      answer();
      const answers = await Promise.all(flood);
      expect(answers.map((one) => one.status)).toEqual(Array(20).fill(200));
      expect(ping).toHaveBeenCalledTimes(1);
      expect((await request('GET', '/healthz', {})).status).toBe(200);
      expect(ping).toHaveBeenCalledTimes(2);
    } finally {
      ping.mockRestore();
    }
  });
});

describe('the admin API’s view of upstream errors, in process', () => {
  it('counts refused calls per model and kind over the asked window of hours', async () => {
    models.script(brontal, { refuse: 503 });
    const visitor = new Visitor(arena);
    const { frames } = await visitor.playedDuel([brontal, zephyrine]);
    expect(frames.at(-1)?.event).toMatchObject({ type: 'turn-end', status: 'failed' });
    const refusedAt = runtime.now().getTime();
    const brontalRows = (answer: InProcessResponse) => (answer.json.models as { model: string }[]).filter((row) => row.model === brontal);

    const lastDay = await request('GET', '/api/v1/admin/upstream-errors');
    expect(lastDay.status).toBe(200);
    expect(lastDay.json.since).toBe(new Date(refusedAt - 24 * HOUR_MS).toISOString());
    expect(brontalRows(lastDay)).toEqual([{ model: brontal, kind: 'http_error', count: 1 }]);
    expect(lastDay.json.models.map((row: { model: string }) => row.model)).not.toContain(zephyrine);

    runtime.advance(2 * HOUR_MS);
    const lastHour = await request('GET', '/api/v1/admin/upstream-errors?hours=1');
    expect(lastHour.json.since).toBe(new Date(refusedAt + HOUR_MS).toISOString());
    expect(brontalRows(lastHour)).toEqual([]);
    expect(brontalRows(await request('GET', '/api/v1/admin/upstream-errors?hours=2.5'))).toHaveLength(1);
  });

  it('lists answers whose provider served another model, not a dated release of the same one, over the window', async () => {
    const substituted = await votedDuel([kestrix, zephyrine]);
    await votedDuel([miravel, zephyrine]);
    const sides = await arena.store.duels.listSides(substituted.id);
    expect(sides.find((side) => side.modelId === kestrix)).toMatchObject({ servedModel: SERVED[kestrix], servedModelMismatch: true });

    const listed = await request('GET', '/api/v1/admin/served-models?hours=1');
    expect(listed.status).toBe(200);
    expect(listed.json.since).toBe(new Date(runtime.now().getTime() - HOUR_MS).toISOString());
    const ours = (listed.json.models as { model: string }[]).filter((row) => [kestrix, miravel].includes(row.model));
    expect(ours).toEqual([{ model: kestrix, served: SERVED[kestrix], answers: 1 }]);

    runtime.advance(2 * HOUR_MS);
    const later = await request('GET', '/api/v1/admin/served-models?hours=1');
    expect((later.json.models as { model: string }[]).filter((row) => row.model === kestrix)).toEqual([]);
  });

  it('refuses a bad window and a request without the token, with the JSON error shape', async () => {
    const cases: [string, Record<string, string>, number, string][] = [
      ['/api/v1/admin/upstream-errors?hours=0', admin, 400, 'invalid_request'],
      ['/api/v1/admin/upstream-errors?hours=-1', admin, 400, 'invalid_request'],
      ['/api/v1/admin/upstream-errors?hours=soon', admin, 400, 'invalid_request'],
      ['/api/v1/admin/upstream-errors?hours=8785', admin, 400, 'invalid_request'],
      ['/api/v1/admin/upstream-errors?days=1', admin, 400, 'invalid_request'],
      ['/api/v1/admin/served-models?hours=0', admin, 400, 'invalid_request'],
      ['/api/v1/admin/upstream-errors', {}, 401, 'unauthorized'],
      ['/api/v1/admin/served-models', { authorization: `Bearer ${TOKEN}x` }, 401, 'unauthorized'],
    ];
    for (const [path, headers, status, code] of cases) {
      const answer = await request('GET', path, headers);
      expect({ path, status: answer.status, code: answer.json?.error?.code }).toEqual({ path, status, code });
      expect(typeof answer.json.error.message, path).toBe('string');
    }
    expect((await request('GET', '/api/v1/admin/upstream-errors?hours=8784')).status).toBe(200);
  });
});

describe('the retention purge, in process', () => {
  it('forgets who played the duels older than the retention period, and only those, once', async () => {
    const operations = new OperationsService(arena.store, runtime.now);
    const old = await votedDuel([zephyrine, brontal]);
    runtime.advance(2 * DAY_MS);
    // 29 days old at the purge: within the period.
    const recent = await votedDuel([zephyrine, brontal]);
    runtime.advance(29 * DAY_MS);

    const purged = await operations.purgeVisitorTraces(30);
    expect(purged.duels).toBeGreaterThanOrEqual(1);
    expect((await arena.store.duels.findById(old.id))?.visitorHash).toBe(`purged:${old.id}`);
    expect((await arena.store.duels.findById(recent.id))?.visitorHash).not.toMatch(/^purged:/);
    // The old duel is nobody's any more; the recent one is still its visitor's.
    expect(await old.visitor.request('GET', `/api/v1/duels/${old.id}`)).toMatchObject({
      status: 404,
      json: { error: { code: 'duel_not_found' } },
    });
    expect((await recent.visitor.request('GET', `/api/v1/duels/${recent.id}`)).status).toBe(200);
    // What was forgotten is not forgotten again.
    expect(await operations.purgeVisitorTraces(30)).toEqual({ duels: 0, votes: 0 });
  });
});
