import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import type { VoteRecord } from '../src/db/repositories/feedback.repository';
import { type Store, createStore } from '../src/db/unit-of-work';
import { DIALECTS, type TestStore } from './test-db';

const vote = (duelId: string, choice: string, createdAt: string): VoteRecord => ({
  duelId, choice, modelA: 'm-a', modelB: 'm-b', tagsA: ['useful'], tagsB: [], commentA: null, commentB: 'ok', identityLeak: false, mode: 'random', locale: 'fr', createdAt,
  ranking: { a: { style: { len: 3, headers: 0, lists: 1, bold: 0 }, outputTokens: 3, energyWh: { min: 0.1, max: 0.2 } }, b: { style: { len: 4, headers: 1, lists: 0, bold: 2 }, outputTokens: 4, energyWh: null } },
});

describe.each(DIALECTS)('votes written in groups ($name)', (dialect) => {
  let testStore: TestStore;
  let store: Store;

  beforeAll(async () => {
    testStore = await dialect.create();
    const db = openDatabase(testStore.location);
    await migrateToLatest(db);
    store = createStore(db);
    for (const [id, status] of [['d1', 'ready'], ['d2', 'ready'], ['d3', 'streaming'], ['d4', 'ready']] as const) {
      await store.duels.createWithFirstTurn({ id, visitorHash: 'v', mode: 'random', modelA: 'm-a', modelB: 'm-b', chosenModels: null, locale: 'fr', status, turnCount: 1, createdAt: '2026-11-30T00:00:00.000Z' }, 'p');
    }
  });
  afterAll(async () => {
    await store.close();
    await testStore.drop();
  });

  it('records the first vote of each ready duel of the group, and nothing else', async () => {
    const group = [vote('d1', 'a', '2026-11-30T00:00:01.000Z'), vote('d2', 'tie', '2026-11-30T00:00:02.000Z'), vote('d1', 'b', '2026-11-30T00:00:03.000Z'), vote('d3', 'a', '2026-11-30T00:00:04.000Z'), vote('nope', 'a', '2026-11-30T00:00:05.000Z')];
    expect(await store.transaction((repositories) => repositories.duels.closeWithVotes(group))).toEqual([true, true, false, false, false]);
    expect((await store.duels.findById('d1'))?.status).toBe('voted');
    expect((await store.duels.findById('d3'))?.status).toBe('streaming');
    expect(await store.feedback.countVotes()).toBe(2);
    expect(await store.feedback.findVote('d1')).toEqual({ duelId: 'd1', choice: 'a', modelA: 'm-a', modelB: 'm-b', tagsA: ['useful'], tagsB: [], commentA: null, commentB: 'ok', identityLeak: false, mode: 'random', locale: 'fr', createdAt: '2026-11-30T00:00:01.000Z' });
    expect((await store.feedback.listRankingVotes()).map((row) => [row.choice, row.a, row.b])).toEqual([
      ['a', group[0]!.ranking!.a, group[0]!.ranking!.b],
      ['tie', group[1]!.ranking!.a, group[1]!.ranking!.b],
    ]);
  });

  it('refuses a second vote, alone or in a group, and a single vote goes the same way as a group', async () => {
    expect(await store.transaction((repositories) => repositories.duels.closeWithVotes([vote('d2', 'a', '2026-11-30T00:00:06.000Z')]))).toEqual([false]);
    expect(await store.transaction((repositories) => repositories.duels.closeWithVotes([vote('d2', 'a', '2026-11-30T00:00:06.000Z'), vote('d4', 'both_bad', '2026-11-30T00:00:07.000Z')]))).toEqual([false, true]);
    expect(await store.transaction((repositories) => repositories.duels.closeWithVotes([vote('d4', 'a', '2026-11-30T00:00:08.000Z')]))).toEqual([false]);
    expect(await store.feedback.countVotes()).toBe(3);
    expect((await store.feedback.findVote('d4'))?.choice).toBe('both_bad');
  });
});
