import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import { type Store, createStore } from '../src/db/unit-of-work';
import { RankingVoteColumns } from '../src/domain/ranking/vote-columns';
import { columnsSnapshotTable } from '../src/services/leaderboard-columns-table';
import { seededRandom } from './seeded-random';
import { DIALECTS, type TestStore } from './test-db';

/* The kept columns' snapshot through the table (the PostgreSQL form), cut into many parts: the same columns come back. */

function columnsOf(size: number): RankingVoteColumns {
  const random = seededRandom(35);
  const models = Array.from({ length: 8 }, (_, index) => `m-${index}`);
  const columns = new RankingVoteColumns();
  for (let index = 0; index < size; index++) {
    const modelA = models[index % 8]!;
    const modelB = models[(index + 1 + Math.floor(random() * 7)) % 8]!;
    const choice = (['a', 'b', 'tie', 'both_bad'] as const)[Math.floor(random() * 4)]!;
    const side = () => ({ len: Math.floor(random() * 900), headers: 1, lists: 2, bold: 0 });
    columns.put(
      {
        view: {
          vote: { modelA, modelB, choice, flags: [], style: { a: side(), b: side() }, energy: { a: null, b: null } },
          language: random() < 0.5 ? 'fr' : 'en',
          mode: 'random',
          categories: [],
          promptCluster: null,
        },
        facts: {
          duelId: `duel-${index}`,
          createdAt: new Date(Date.parse('2026-11-01T00:00:00Z') + index * 1000).toISOString(),
          source: 'arena',
          visitor: `v-${Math.floor(random() * 100)}`,
          client: `c-${Math.floor(random() * 10)}`,
          choice,
          modelA,
          modelB,
          votedAfterMs: 1000,
          shownChars: 500,
          votedAfterShownMs: 2000,
          review: null,
        },
      },
      `duel-${index}`,
    );
  }
  return columns;
}

describe.each(DIALECTS)('the kept columns snapshot as table rows ($name)', (dialect) => {
  let testStore: TestStore;
  let store: Store;
  beforeAll(async () => {
    testStore = await dialect.create();
    const db = openDatabase(testStore.location);
    await migrateToLatest(db);
    store = createStore(db);
  });
  afterAll(async () => {
    await store.close();
    await testStore.drop();
  });

  it('writes the columns in parts of 16 KiB and reads back the same columns and header', async () => {
    const table = columnsSnapshotTable(store, { now: () => new Date('2026-12-10T12:00:00Z') }, 16_384);
    expect(await table.read()).toBeUndefined();
    const columns = columnsOf(5_000);
    const header = { epoch: 4, readFrom: Date.parse('2026-12-10T11:00:00Z'), loadedAt: Date.parse('2026-12-10T10:00:00Z'), merged: 0 };
    expect(await table.write(header, columns.toState())).toBe(true);
    const head = await store.rankingColumns.head();
    expect(head).toMatchObject({ epoch: 4, votes: 5_000, read_from: '2026-12-10T11:00:00.000Z' });
    expect(head!.parts).toBe(Math.ceil(head!.bytes / 16_384));
    expect(head!.parts).toBeGreaterThan(10);
    const read = await table.read();
    if (!read || 'rejected' in read) throw new Error(`not read back: ${read ? read.rejected : 'missing'}`);
    expect(read.header).toEqual(header);
    expect(RankingVoteColumns.fromState(read.state).view()).toEqual(columns.view());
    // A snapshot of an earlier read (an instance that lost the leaderboard) does not replace it.
    expect(await table.write({ ...header, readFrom: header.readFrom - 1 }, columnsOf(10).toState())).toBe(false);
    expect((await store.rankingColumns.head())!.votes).toBe(5_000);
  });
});
