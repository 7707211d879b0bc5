import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/dialect';
import { DIALECTS } from './test-db';
import { ArenaClient, type TestArena, startTestArena } from './test-arena';

describe.each(DIALECTS)('turns left streaming by a process that died ($name)', (dialect) => {
  const arenas: TestArena[] = [];
  afterAll(async () => {
    for (const arena of arenas.reverse()) await arena.close();
  });

  it('are marked failed when an arena starts, so that the duel is no longer "in progress"; a live turn is left alone', async () => {
    const first = await startTestArena(dialect);
    arenas.push(first);
    const played = async () => {
      const created = await first.client.request('POST', '/api/v1/duels', { prompt: 'Bonjour' });
      await first.client.stream(created.json.id);
      return created.json.id as string;
    };
    const [crashed, live] = [await played(), await played()];
    // What kill -9 mid-stream leaves: the turn and its duel `streaming`, no frames; one long ago, one just now.
    const db = openDatabase(first.store.location);
    try {
      for (const [duelId, startedAt] of [
        [crashed, '2026-01-01T00:00:00.000Z'],
        [live, new Date().toISOString()],
      ] as const) {
        await db
          .updateTable('turns')
          .set({ status: 'streaming', ended_at: null, frames: null, started_at: startedAt })
          .where('duel_id', '=', duelId)
          .execute();
        await db.updateTable('duels').set({ status: 'streaming' }).where('id', '=', duelId).execute();
      }
    } finally {
      await db.destroy();
    }
    expect((await first.client.request('POST', `/api/v1/duels/${crashed}/vote`, { choice: 'a' })).json.error.code).toBe('turn_in_progress');

    // The restart, on the same store, with the same visitor.
    const restarted = await startTestArena(dialect, { store: first.store });
    arenas.push(restarted);
    const visitor = new ArenaClient(restarted.baseUrl, first.client.visitorCookie);
    const vote = await visitor.request('POST', `/api/v1/duels/${crashed}/vote`, { choice: 'a' });
    expect(vote).toMatchObject({ status: 409, json: { error: { code: 'duel_failed' } } });
    const frames = await visitor.stream(crashed);
    expect(frames.at(-1)?.event).toMatchObject({ type: 'turn-end', status: 'failed' });
    expect((await visitor.request('GET', `/api/v1/duels/${crashed}`)).json).toMatchObject({
      status: 'failed',
      turns: [{ status: 'failed' }],
    });
    expect(await restarted.arena.store.duels.findById(live)).toMatchObject({ status: 'streaming' });
    // Its conversation goes to post-processing like any failed duel's.
    expect(await restarted.arena.store.annotations.find(crashed)).toBeDefined();
  });
});
