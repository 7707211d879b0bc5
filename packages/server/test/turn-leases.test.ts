import { type ReceivedFrame, readStreamFrames } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../src/config/catalogue';
import { type StoreLocation, openDatabase } from '../src/db/dialect';
import { TURN_LEASE_MS } from '../src/services/duels/turn-lease';
import { TestRuntime } from './in-process/harness';
import { DIALECTS } from './test-db';
import { type TestArena, startTestArena, testCatalogueYaml, until } from './test-arena';

/**
 * A running turn's lease (issue 31, docs/decisions/0005-several-instances.md): its owner renews it,
 * and once it lapses the turn is ended as interrupted by whoever meets it first (a vote, a
 * follow-up, the sweep, a follower on another instance), and by nobody while it holds. The clock
 * is the test's: a lease lapses when the test moves it, never by the machine's load.
 */

/** Slow enough (8 s a side) for a renewal (every 3 s) to happen while the turn streams. */
const SLOW = { tokensPerSecond: 15, text: Array.from({ length: 120 }, (_, index) => `mot${index}`).join(' ') };
const longTimeouts = (baseUrl: string) => parseCatalogue(testCatalogueYaml(baseUrl, { totalTimeoutMs: 60_000 }), 'test-models.yaml', {});

/**
 * What a process killed mid-stream leaves of a played turn: the turn and its duel `streaming`, no
 * frames and no answers, with this lease (null: a turn from before leases) and start.
 */
async function leaveStreaming(location: StoreLocation, duelId: string, turn: number, row: { leaseUntil: Date | null; startedAt: Date }) {
  const db = openDatabase(location);
  try {
    await db.deleteFrom('turn_sides').where('duel_id', '=', duelId).where('turn', '=', turn).execute();
    await db
      .updateTable('turns')
      .set({
        status: 'streaming',
        error_code: null,
        ended_at: null,
        frames: null,
        started_at: row.startedAt.toISOString(),
        lease_until: row.leaseUntil?.toISOString() ?? null,
      })
      .where('duel_id', '=', duelId)
      .where('turn', '=', turn)
      .execute();
    await db.updateTable('duels').set({ status: 'streaming' }).where('id', '=', duelId).execute();
  } finally {
    await db.destroy();
  }
}

async function readLease(location: StoreLocation, duelId: string, turn = 1): Promise<string | null> {
  const db = openDatabase(location);
  try {
    const row = await db
      .selectFrom('turns')
      .select('lease_until')
      .where('duel_id', '=', duelId)
      .where('turn', '=', turn)
      .executeTakeFirstOrThrow();
    return row.lease_until;
  } finally {
    await db.destroy();
  }
}

const later = (runtime: TestRuntime, ms: number) => new Date(runtime.now().getTime() + ms);

describe.each(DIALECTS)('turn leases ($name)', (dialect) => {
  const runtime = new TestRuntime();
  let test: TestArena;
  beforeAll(async () => {
    test = await startTestArena(dialect, { runtime, catalogue: longTimeouts });
  });
  afterAll(async () => {
    await test?.close();
  });

  const played = async (prompt = 'Bonjour') => {
    const created = await test.client.request('POST', '/api/v1/duels', { prompt });
    await test.client.stream(created.json.id);
    return created.json.id as string;
  };

  it('a vote ends a turn whose lease lapsed and answers as for a failed duel; a turn whose lease holds is left alone', async () => {
    const [crashed, live] = [await played(), await played()];
    await leaveStreaming(test.store.location, crashed, 1, { leaseUntil: later(runtime, -1), startedAt: runtime.now() });
    await leaveStreaming(test.store.location, live, 1, { leaseUntil: later(runtime, 5000), startedAt: runtime.now() });

    expect(await test.client.request('POST', `/api/v1/duels/${live}/vote`, { choice: 'a' })).toMatchObject({
      status: 409,
      json: { error: { code: 'turn_in_progress' } },
    });
    expect(await test.client.request('POST', `/api/v1/duels/${live}/messages`, { prompt: 'Et alors ?' })).toMatchObject({
      status: 409,
      json: { error: { code: 'turn_in_progress' } },
    });
    expect(await test.client.request('POST', `/api/v1/duels/${crashed}/vote`, { choice: 'a' })).toMatchObject({
      status: 409,
      json: { error: { code: 'duel_failed' } },
    });
    expect((await test.client.request('GET', `/api/v1/duels/${crashed}`)).json).toMatchObject({
      status: 'failed',
      turns: [{ status: 'failed' }],
    });
    expect(await test.arena.store.duels.listTurns(crashed)).toMatchObject([{ status: 'failed', errorCode: 'interrupted' }]);
    // Its conversation goes to post-processing like any failed duel's.
    expect(await test.arena.store.annotations.find(crashed)).toBeDefined();
    expect(await test.arena.store.duels.findById(live)).toMatchObject({ status: 'streaming' });
  });

  it('a follow-up after a follow-up turn whose lease lapsed starts the next turn, as after any failed follow-up', async () => {
    const duelId = await played();
    expect((await test.client.request('POST', `/api/v1/duels/${duelId}/messages`, { prompt: 'Et ensuite ?' })).status).toBe(201);
    await test.client.stream(duelId, { turn: 2 });
    await leaveStreaming(test.store.location, duelId, 2, { leaseUntil: later(runtime, -1), startedAt: runtime.now() });

    const next = await test.client.request('POST', `/api/v1/duels/${duelId}/messages`, { prompt: 'Reprenons.' });
    expect(next).toMatchObject({ status: 201, json: { turn: 3 } });
    expect((await test.client.stream(duelId, { turn: 3 })).at(-1)?.event).toMatchObject({ type: 'turn-end', status: 'complete' });
    expect(await test.arena.store.duels.listTurns(duelId)).toMatchObject([
      { status: 'complete' },
      { status: 'failed', errorCode: 'interrupted' },
      { status: 'complete' },
    ]);
  });

  it('the sweep ends the lapsed turns nobody watches, and a turn without a lease only past its deadline', async () => {
    const [lapsed, live, recentWithout, oldWithout] = [await played(), await played(), await played(), await played()];
    await leaveStreaming(test.store.location, lapsed, 1, { leaseUntil: later(runtime, -1), startedAt: runtime.now() });
    await leaveStreaming(test.store.location, live, 1, { leaseUntil: later(runtime, 5000), startedAt: runtime.now() });
    await leaveStreaming(test.store.location, recentWithout, 1, { leaseUntil: null, startedAt: runtime.now() });
    await leaveStreaming(test.store.location, oldWithout, 1, { leaseUntil: null, startedAt: new Date('2026-01-01T00:00:00.000Z') });

    // Only this test's duels: the earlier tests left turns of their own.
    const sweep = async () =>
      (await test.arena.duels.failInterruptedTurns()).filter((id) => [lapsed, live, recentWithout, oldWithout].includes(id));
    expect((await sweep()).sort()).toEqual([lapsed, oldWithout].sort());
    runtime.advance(6000);
    expect(await sweep()).toEqual([live]);
    for (const duelId of [lapsed, live, oldWithout])
      expect(await test.arena.store.duels.findById(duelId)).toMatchObject({ status: 'failed' });
    expect(await test.arena.store.duels.findById(recentWithout)).toMatchObject({ status: 'streaming' });
  });

  it('renews the leases of several turns in one statement, only those still streaming', async () => {
    const [first, second, stored] = [await played(), await played(), await played()];
    const until = later(runtime, 1000);
    for (const duelId of [first, second])
      await leaveStreaming(test.store.location, duelId, 1, { leaseUntil: until, startedAt: runtime.now() });
    const renewedUntil = later(runtime, 60_000).toISOString();
    const turns = [first, second, stored].map((duelId) => ({ duelId, turn: 1 }));
    expect(await test.arena.store.duels.renewTurnLeases([...turns, { duelId: first, turn: 2 }], renewedUntil)).toEqual(
      new Set([`${first}:1`, `${second}:1`]),
    );
    expect([await readLease(test.store.location, first), await readLease(test.store.location, second)]).toEqual([
      renewedUntil,
      renewedUntil,
    ]);
    expect(await readLease(test.store.location, stored)).toBeNull();
    expect(await test.arena.store.duels.renewTurnLeases([], renewedUntil)).toEqual(new Set());
    // Ended as a killed process's turns are, so that no later test meets them streaming.
    for (const duelId of [first, second])
      await leaveStreaming(test.store.location, duelId, 1, { leaseUntil: later(runtime, -1), startedAt: runtime.now() });
    expect(await test.arena.duels.failInterruptedTurns()).toEqual(expect.arrayContaining([first, second]));
  });

  it('the owner’s renewal keeps a long turn alive past the lease, and stops once the turn is stored', async () => {
    test.fake.defaultBehaviour = SLOW;
    try {
      const created = await test.client.request('POST', '/api/v1/duels', { prompt: 'Une longue réponse' });
      const duelId = created.json.id as string;
      const first = await until(
        () => readLease(test.store.location, duelId),
        (lease) => lease !== null,
      );
      expect(first).toBe(later(runtime, TURN_LEASE_MS).toISOString());
      runtime.advance(TURN_LEASE_MS - 2000);
      await until(
        () => readLease(test.store.location, duelId),
        (lease) => lease !== null && lease > first!,
        10_000,
      );
      // Past the first lease: only the renewal holds the turn.
      runtime.advance(4000);
      expect((await test.client.request('POST', `/api/v1/duels/${duelId}/vote`, { choice: 'a' })).json.error.code).toBe('turn_in_progress');
      expect(await test.arena.duels.failInterruptedTurns()).not.toContain(duelId);
      expect((await test.client.stream(duelId)).at(-1)?.event).toMatchObject({ type: 'turn-end', status: 'complete' });
      expect(await readLease(test.store.location, duelId)).toBeNull();
    } finally {
      test.fake.defaultBehaviour = {};
    }
  }, 30_000);

  it('an owner whose turn was ended meanwhile stops it, and its own ending does not overwrite the failure', async () => {
    test.fake.defaultBehaviour = SLOW;
    try {
      const prompt = 'Un tour que le propriétaire croit encore à lui';
      const created = await test.client.request('POST', '/api/v1/duels', { prompt });
      const duelId = created.json.id as string;
      const streamed = test.client.stream(duelId);
      // The owner renews every 3 s: a vote right after one answers "in progress", the next one after the lease lapses ends the turn.
      await until(
        async () => {
          runtime.advance(TURN_LEASE_MS + 1);
          return (await test.client.request('POST', `/api/v1/duels/${duelId}/vote`, { choice: 'a' })).json.error.code as string;
        },
        (code) => code === 'duel_failed',
      );
      // The owner learns it at its next renewal: its readers get the same ending, and both upstream calls stop.
      expect((await streamed).slice(-2).map((frame) => frame.event)).toMatchObject([
        { type: 'turn-error', code: 'turn_interrupted' },
        { type: 'turn-end', turn: 1, status: 'failed' },
      ]);
      await test.arena.duels.drain();
      expect(await test.arena.store.duels.listTurns(duelId)).toMatchObject([{ status: 'failed', errorCode: 'interrupted' }]);
      expect(await test.arena.store.duels.listSides(duelId)).toEqual([]);
      expect(await test.arena.store.duels.findById(duelId)).toMatchObject({ status: 'failed' });
      const calls = test.fake.requests.filter((request) => JSON.stringify(request.body).includes(prompt));
      expect(calls.map((call) => call.completed)).toEqual([false, false]);
    } finally {
      test.fake.defaultBehaviour = {};
    }
  }, 30_000);
});

const postgres = DIALECTS.find((dialect) => dialect.name === 'postgres');

describe.runIf(postgres)('a turn followed from another instance whose owner stopped (postgres)', () => {
  const runtime = new TestRuntime();
  const environment = { AGORA_INSTANCES: 'several' };
  let first: TestArena;
  let second: TestArena;
  beforeAll(async () => {
    first = await startTestArena(postgres!, { runtime, environment });
    second = await startTestArena(postgres!, { runtime, environment, store: first.store });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('is followed while its lease holds; once it lapses, the follower ends it and its stream with the failure frame', async () => {
    const created = await first.client.request('POST', '/api/v1/duels', { prompt: 'Bonjour' });
    const duelId = created.json.id as string;
    await first.client.stream(duelId);
    // The owner streamed two frames, then stopped renewing.
    await leaveStreaming(first.store.location, duelId, 1, { leaseUntil: later(runtime, 5000), startedAt: runtime.now() });
    await first.arena.store.duels.appendLiveFrames(duelId, 1, [
      { id: 1, event: { type: 'turn-start', turn: 1 } },
      { id: 2, event: { type: 'text-delta', side: 'a', text: 'Bonjour' } },
    ]);

    const frames: ReceivedFrame[] = [];
    const response = await fetch(`${second.baseUrl}/api/v1/duels/${duelId}/stream`, { headers: { cookie: first.client.visitorCookie! } });
    const following = (async () => {
      for await (const frame of readStreamFrames(response.body!)) frames.push(frame);
    })();
    await until(
      async () => frames.length,
      (count) => count >= 2,
    );
    // Several polls (every 100 ms) while the lease holds: nothing ends.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(frames).toHaveLength(2);
    expect(await second.arena.store.duels.findById(duelId)).toMatchObject({ status: 'streaming' });

    runtime.advance(6000);
    await following;
    expect(frames.map((frame) => frame.event)).toMatchObject([
      { type: 'turn-start' },
      { type: 'text-delta', text: 'Bonjour' },
      { type: 'turn-error', code: 'turn_interrupted' },
      { type: 'turn-end', status: 'failed' },
    ]);
    expect(await second.arena.store.duels.listTurns(duelId)).toMatchObject([{ status: 'failed', errorCode: 'interrupted' }]);
    expect(await second.arena.store.duels.findById(duelId)).toMatchObject({ status: 'failed' });
    expect(await second.arena.store.duels.liveFramesAfter(duelId, 1, 0)).toEqual([]);
  });
});
