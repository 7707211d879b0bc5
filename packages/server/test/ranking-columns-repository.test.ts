import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import { type Store, createStore } from '../src/db/unit-of-work';
import { DIALECTS, type TestStore } from './test-db';

/*
 * The kept columns' snapshot as rows (services/leaderboard-columns-table.ts writes them): replaced
 * whole, read back in order, and never replaced by a snapshot that read the votes earlier at the
 * same epoch (an instance that lost the leaderboard keeps older columns).
 */

const head = (epoch: number, readFrom: string) => ({
  version: 1,
  epoch,
  read_from: readFrom,
  loaded_at: '2026-12-10T10:00:00.000Z',
  votes: 3,
  bytes: 9,
  written_at: '2026-12-10T12:00:00.000Z',
});
const parts = (...texts: string[]) => texts.map((text) => Buffer.from(text));
const stored = async (store: Store) => (await store.rankingColumns.parts()).map((part) => part.toString());

describe.each(DIALECTS)('the kept columns snapshot rows ($name)', (dialect) => {
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

  it('replaces every part in one transaction, keeps a later read, and a rolled-back write leaves the old rows', async () => {
    expect(await store.rankingColumns.parts()).toEqual([]);
    const write = (epoch: number, readFrom: string, ...texts: string[]) =>
      store.transaction((repositories) => repositories.rankingColumns.replace(head(epoch, readFrom), parts(...texts)));
    expect(await write(1, '2026-12-10T11:00:00.000Z', 'abc', 'def', 'ghi')).toBe(true);
    expect(await stored(store)).toEqual(['abc', 'def', 'ghi']);
    expect(await store.rankingColumns.head()).toMatchObject({ epoch: 1, parts: 3, read_from: '2026-12-10T11:00:00.000Z' });
    // An older read at the same epoch: left alone.
    expect(await write(1, '2026-12-10T10:30:00.000Z', 'old')).toBe(false);
    expect(await stored(store)).toEqual(['abc', 'def', 'ghi']);
    // A later read, or another epoch (a purge or an import since): replaces every part.
    expect(await write(1, '2026-12-10T11:30:00.000Z', 'new', 'er')).toBe(true);
    expect(await stored(store)).toEqual(['new', 'er']);
    expect(await write(2, '2026-12-10T09:00:00.000Z', 'epoch-2')).toBe(true);
    expect(await stored(store)).toEqual(['epoch-2']);
    expect(await store.rankingColumns.head()).toMatchObject({ epoch: 2, parts: 1 });
    // A write that fails after its parts went in leaves nothing of itself.
    await expect(
      store.transaction(async (repositories) => {
        await repositories.rankingColumns.replace(head(2, '2026-12-10T13:00:00.000Z'), parts('torn', 'write'));
        throw new Error('killed');
      }),
    ).rejects.toThrow('killed');
    expect(await stored(store)).toEqual(['epoch-2']);
    await store.rankingColumns.clear();
    expect(await store.rankingColumns.parts()).toEqual([]);
    expect(await store.rankingColumns.head()).toBeUndefined();
  });
});
