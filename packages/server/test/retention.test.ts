import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/dialect';
import { DuelSweepRepository } from '../src/db/repositories/duel-sweep.repository';
import { FeedbackRepository } from '../src/db/repositories/feedback.repository';
import { DIALECTS } from './test-db';
import { ArenaClient, type TestArena, startTestArena } from './test-arena';

describe.each(DIALECTS)('retention ($name)', (dialect) => {
  const arenas: TestArena[] = [];
  afterAll(async () => {
    for (const arena of arenas.reverse()) await arena.close();
  });

  it('forgets who played duels older than the retention period: visitor and address hashes, at start and then periodically', async () => {
    const first = await startTestArena(dialect, { environment: { AGORA_INTEGRITY_MIN_VOTE_S: '0' } });
    arenas.push(first);
    first.fake.defaultBehaviour = { tokensPerSecond: 0 };
    const play = async () => {
      const created = await first.client.request('POST', '/api/v1/duels', { prompt: 'Bonjour' });
      await first.client.stream(created.json.id);
      expect((await first.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'a' })).status).toBe(200);
      return created.json.id as string;
    };
    const [old, recent] = [await play(), await play()];
    const db = openDatabase(first.store.location);
    try {
      await db.updateTable('duels').set({ created_at: '2026-01-01T00:00:00.000Z' }).where('id', '=', old).execute();
      await db.updateTable('votes').set({ created_at: '2026-01-01T00:05:00.000Z' }).where('duel_id', '=', old).execute();
      const before = await db.selectFrom('votes').select(['duel_id', 'client_hash']).execute();
      expect(before.every((vote) => typeof vote.client_hash === 'string' && vote.client_hash.length > 10)).toBe(true);
    } finally {
      await db.destroy();
    }

    const restarted = await startTestArena(dialect, { store: first.store, environment: { AGORA_RETENTION_DAYS: '30' } });
    arenas.push(restarted);
    const check = openDatabase(first.store.location);
    try {
      const duels = await check.selectFrom('duels').select(['id', 'visitor_hash']).execute();
      expect(duels.find((duel) => duel.id === old)?.visitor_hash).toBe(`purged:${old}`);
      expect(duels.find((duel) => duel.id === recent)?.visitor_hash).not.toMatch(/^purged:/);
      const votes = await check.selectFrom('votes').select(['duel_id', 'client_hash']).execute();
      expect(votes.find((vote) => vote.duel_id === old)?.client_hash).toBeNull();
      expect(votes.find((vote) => vote.duel_id === recent)?.client_hash).not.toBeNull();
    } finally {
      await check.destroy();
    }
    // The old duel is nobody's any more; the recent one is still its visitor's.
    const visitor = new ArenaClient(restarted.baseUrl, first.client.visitorCookie);
    expect((await visitor.request('GET', `/api/v1/duels/${old}`)).status).toBe(404);
    expect((await visitor.request('GET', `/api/v1/duels/${recent}`)).status).toBe(200);
  });
  it('purges a large backlog a page per transaction, the event loop turning between pages, and moves the ranking epoch', async () => {
    const harness = await startTestArena(dialect, { environment: { AGORA_INTEGRITY_MIN_VOTE_S: '0' } });
    arenas.push(harness);
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    const played: string[] = [];
    for (let index = 0; index < 7; index++) {
      const visitor = new ArenaClient(harness.baseUrl);
      const created = await visitor.request('POST', '/api/v1/duels', { prompt: `Bonjour ${index}` });
      await visitor.stream(created.json.id);
      expect((await visitor.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'a' })).status).toBe(200);
      played.push(created.json.id as string);
    }
    const [recent, ...old] = played;
    const db = openDatabase(harness.store.location);
    try {
      // Six old duels, two pairs with the same start: a range ends on a page's last created_at and takes its ties.
      const seconds = [0, 1, 1, 2, 3, 3];
      for (const [index, id] of old.entries()) {
        const at = `2026-01-01T00:00:0${seconds[index]}.000Z`;
        await db.updateTable('duels').set({ created_at: at }).where('id', '=', id).execute();
        await db.updateTable('votes').set({ created_at: at }).where('duel_id', '=', id).execute();
      }
      const epoch = await new FeedbackRepository(db).rankingEpoch();
      let turns = 0;
      let ticking = true;
      const tick = () => ticking && (turns++, setImmediate(tick));
      setImmediate(tick);
      const purged = await new DuelSweepRepository(db, 2).purgeVisitorTraces('2026-02-01T00:00:00.000Z');
      ticking = false;
      expect(purged).toEqual({ duels: 6, votes: 6 });
      // Two ranges of three rows in each table, then the rest (none): the loop turned between them.
      expect(turns).toBeGreaterThanOrEqual(3);
      expect(await new FeedbackRepository(db).rankingEpoch()).not.toBe(epoch);
      const duels = await db.selectFrom('duels').select(['id', 'visitor_hash']).execute();
      for (const id of old) expect(duels.find((duel) => duel.id === id)?.visitor_hash).toBe(`purged:${id}`);
      expect(duels.find((duel) => duel.id === recent)?.visitor_hash).not.toMatch(/^purged:/);
      const votes = await db.selectFrom('votes').select(['duel_id', 'client_hash']).execute();
      for (const id of old) expect(votes.find((vote) => vote.duel_id === id)?.client_hash).toBeNull();
      expect(votes.find((vote) => vote.duel_id === recent)?.client_hash).not.toBeNull();
      // Again: nothing left to purge, and the epoch stays where it is.
      const moved = await new FeedbackRepository(db).rankingEpoch();
      expect(await new DuelSweepRepository(db, 2).purgeVisitorTraces('2026-02-01T00:00:00.000Z')).toEqual({ duels: 0, votes: 0 });
      expect(await new FeedbackRepository(db).rankingEpoch()).toBe(moved);
    } finally {
      await db.destroy();
    }
  });
});
