import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import type { VoteRecord } from '../src/db/repositories/feedback.repository';
import { type Store, createStore } from '../src/db/unit-of-work';
import { DIALECTS, type TestStore } from './test-db';

const vote = (duelId: string, choice: string, createdAt: string): VoteRecord => ({
  duelId,
  choice,
  modelA: 'm-a',
  modelB: 'm-b',
  tagsA: ['useful'],
  tagsB: [],
  commentA: null,
  commentB: 'ok',
  identityLeak: false,
  mode: 'random',
  locale: 'fr',
  createdAt,
  ranking: {
    a: { style: { len: 3, headers: 0, lists: 1, bold: 0 }, outputTokens: 3, energyWh: { min: 0.1, max: 0.2 } },
    b: { style: { len: 4, headers: 1, lists: 0, bold: 2 }, outputTokens: 4, energyWh: null },
  },
});

describe.each(DIALECTS)('votes written in groups ($name)', (dialect) => {
  let testStore: TestStore;
  let store: Store;

  // A fresh store per test, so that each test stands alone and in any order.
  beforeEach(async () => {
    testStore = await dialect.create();
    const db = openDatabase(testStore.location);
    await migrateToLatest(db);
    store = createStore(db);
    for (const [id, status] of [
      ['d1', 'ready'],
      ['d2', 'ready'],
      ['d3', 'streaming'],
      ['d4', 'ready'],
      ['d5', 'ready'],
      ['d6', 'ready'],
      ['d7', 'ready'],
      ['d8', 'ready'],
    ] as const) {
      await store.duels.createWithFirstTurn(
        {
          id,
          visitorHash: 'v',
          mode: 'random',
          modelA: 'm-a',
          modelB: 'm-b',
          chosenModels: null,
          locale: 'fr',
          status,
          turnCount: 1,
          createdAt: '2026-11-30T00:00:00.000Z',
        },
        'p',
      );
    }
  });
  afterEach(async () => {
    await store.close();
    await testStore.drop();
  });

  /** A group with a second vote, a vote on a streaming duel and one on no duel: only d1 (a) and d2 (tie) are recorded. */
  const firstGroup = () => [
    vote('d1', 'a', '2026-11-30T00:00:01.000Z'),
    vote('d2', 'tie', '2026-11-30T00:00:02.000Z'),
    vote('d1', 'b', '2026-11-30T00:00:03.000Z'),
    vote('d3', 'a', '2026-11-30T00:00:04.000Z'),
    vote('nope', 'a', '2026-11-30T00:00:05.000Z'),
  ];
  const recordFirstVotes = () => store.duels.recordVotes(firstGroup());

  it('records the first vote of each ready duel of the group, and nothing else', async () => {
    const group = firstGroup();
    expect(await store.duels.recordVotes(group)).toEqual([true, true, false, false, false]);
    expect((await store.duels.findById('d1'))?.status).toBe('voted');
    expect((await store.duels.findById('d3'))?.status).toBe('streaming');
    expect(await store.feedback.countVotes()).toBe(2);
    expect(await store.feedback.findVote('d1')).toEqual({
      duelId: 'd1',
      choice: 'a',
      modelA: 'm-a',
      modelB: 'm-b',
      tagsA: ['useful'],
      tagsB: [],
      commentA: null,
      commentB: 'ok',
      identityLeak: false,
      mode: 'random',
      locale: 'fr',
      createdAt: '2026-11-30T00:00:01.000Z',
    });
    expect((await store.feedback.listRankingVotes()).map((row) => [row.choice, row.a, row.b])).toEqual([
      ['a', group[0]!.ranking!.a, group[0]!.ranking!.b],
      ['tie', group[1]!.ranking!.a, group[1]!.ranking!.b],
    ]);
  });

  it('refuses a second vote, alone or in a group, and a single vote goes the same way as a group', async () => {
    await recordFirstVotes();
    expect(await store.duels.recordVotes([vote('d2', 'a', '2026-11-30T00:00:06.000Z')])).toEqual([false]);
    // In the caller's transaction as well as in one of its own.
    expect(
      await store.transaction((repositories) =>
        repositories.duels.recordVotes([vote('d2', 'a', '2026-11-30T00:00:06.000Z'), vote('d4', 'both_bad', '2026-11-30T00:00:07.000Z')]),
      ),
    ).toEqual([false, true]);
    expect(await store.duels.recordVotes([vote('d4', 'a', '2026-11-30T00:00:08.000Z')])).toEqual([false]);
    expect(await store.feedback.countVotes()).toBe(3);
    expect((await store.feedback.findVote('d4'))?.choice).toBe('both_bad');
  });

  it('queues the conversations of the recorded votes for post-processing, and only theirs', async () => {
    await recordFirstVotes();
    await store.duels.recordVotes([vote('d4', 'both_bad', '2026-11-30T00:00:07.000Z')]);
    const queued = async (duelId: string) => (await store.annotations.find(duelId))?.status;
    expect([await queued('d1'), await queued('d2'), await queued('d3'), await queued('d4')]).toEqual([
      'pending',
      'pending',
      undefined,
      'pending',
    ]);
    expect(await store.annotations.find('d1')).toMatchObject({ attempts: 0, turnsAnnotated: 0, nextAttemptAt: '2026-11-30T00:00:05.000Z' });
  });

  it('keeps a whole annotation and queues a grown one again', async () => {
    const annotated = (duelId: string, turnsAnnotated: number) => ({
      duelId,
      status: 'done' as const,
      attempts: 1,
      lastError: null,
      nextAttemptAt: null,
      turnsAnnotated,
      languages: ['fr'],
      messageLanguages: [],
      piiRuleKinds: [],
      piiModelKinds: null,
      containsPii: false,
      modelStatus: 'not_configured' as const,
      modelId: null,
      categories: null,
      keywords: null,
      shortSummary: null,
      capabilities: [],
      promptCluster: '',
      annotatedAt: '2026-11-30T00:00:00.000Z',
      updatedAt: '2026-11-30T00:00:00.000Z',
    });
    // d5 annotated whole (1 turn of 1); d6 annotated before a turn that the store does not have yet.
    await store.annotations.saveMany([annotated('d5', 1), annotated('d6', 0)]);
    expect(
      await store.duels.recordVotes([vote('d5', 'a', '2026-11-30T00:00:09.000Z'), vote('d6', 'b', '2026-11-30T00:00:10.000Z')]),
    ).toEqual([true, true]);
    expect(await store.annotations.find('d5')).toEqual(annotated('d5', 1));
    expect(await store.annotations.find('d6')).toMatchObject({
      status: 'pending',
      attempts: 0,
      turnsAnnotated: 0,
      languages: ['fr'],
      nextAttemptAt: '2026-11-30T00:00:10.000Z',
    });
  });

  it('stores nothing of a group that cannot be stored whole', async () => {
    const broken = { ...vote('d8', 'a', '2026-11-30T00:00:12.000Z'), choice: null as unknown as string };
    await expect(store.duels.recordVotes([vote('d7', 'tie', '2026-11-30T00:00:11.000Z'), broken])).rejects.toThrow();
    for (const duelId of ['d7', 'd8']) {
      expect((await store.duels.findById(duelId))?.status).toBe('ready');
      expect(await store.feedback.findVote(duelId)).toBeUndefined();
      expect(await store.annotations.find(duelId)).toBeUndefined();
    }
  });
});
