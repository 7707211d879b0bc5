import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/main';
import type { Store } from '../src/db/unit-of-work';
import { seedDemoDuels } from '../src/services/demo-seed.service';
import { seededRandom } from './seeded-random';
import { DIALECTS, type TestStore, countRows } from './test-db';

const MODELS = ['strong', 'middle', 'weak'];

/** The demo's past votes: written once on an empty store, never on one that holds votes, and shaped like people's. */
describe.each(DIALECTS)('demo seed ($name)', (dialect) => {
  let testStore: TestStore;
  let store: Store;
  let counter = 0;
  const runtime = { now: () => new Date('2026-12-01T12:00:00Z'), newId: () => `id${(counter += 1)}`, random: seededRandom(7) };
  beforeAll(async () => {
    testStore = await dialect.create();
    store = await openStore({ database: testStore.location });
  });
  afterAll(async () => {
    await store.close();
    await testStore.drop();
  });

  it('seeds duels with one vote each, spread over the past days', async () => {
    expect(await seedDemoDuels(store, runtime, { models: MODELS, duels: 300, days: 14 })).toBe(300);
    const rows = await countRows(testStore.location);
    expect(rows.duels).toBe(300);
    expect(rows.votes).toBe(300);
    const votes = await store.feedback.countVotesBefore('2026-11-17T12:00:00Z');
    expect(votes).toBe(0);
    expect(await store.feedback.countVotesBefore('2026-11-24T12:00:00Z')).toBeGreaterThan(100);
  });

  it('follows the strengths it was given: the strongest model wins most of its decided votes', async () => {
    const wins = new Map<string, number>();
    const decided = new Map<string, number>();
    for await (const page of store.feedback.rankingVotePages(500))
      for (const vote of page) {
        if (vote.choice !== 'a' && vote.choice !== 'b') continue;
        const winner = vote.choice === 'a' ? vote.modelA : vote.modelB;
        wins.set(winner, (wins.get(winner) ?? 0) + 1);
        for (const model of [vote.modelA, vote.modelB]) decided.set(model, (decided.get(model) ?? 0) + 1);
      }
    const share = (model: string) => (wins.get(model) ?? 0) / decided.get(model)!;
    expect(share('strong')).toBeGreaterThan(share('middle'));
    expect(share('middle')).toBeGreaterThan(share('weak'));
  });

  it('never seeds a store that already holds votes', async () => {
    expect(await seedDemoDuels(store, runtime, { models: MODELS, duels: 50, days: 14 })).toBe(0);
    expect((await countRows(testStore.location)).votes).toBe(300);
  });
});
