/*
 * The kept vote columns' snapshot on a PostgreSQL store: the same encoded bytes as the file beside
 * an SQLite store (adapters/ranking-columns-snapshot.ts), as parts of a table written in one
 * transaction (a writer killed midway leaves the old rows: PostgreSQL rolls it back) and read back in
 * one statement; the same checks then decide whether a start trusts it (docs/operations.md#leaderboard-snapshot).
 */
import {
  COLUMNS_SNAPSHOT_VERSION,
  type ColumnsSnapshotRead,
  type ColumnsSnapshotStorage,
  columnsSnapshotParts,
  decodeColumnsSnapshot,
  encodeColumnsSnapshot,
} from '../adapters/ranking-columns-snapshot';
import type { Store } from '../db/unit-of-work';
import type { Runtime } from './ports/runtime';

/** The snapshot as rows of `ranking_columns_parts` (and its header's fields in `ranking_columns_snapshot`); parts of 4 MB unless a test says. */
export function columnsSnapshotTable(store: Store, runtime: Pick<Runtime, 'now'>, partBytes?: number): ColumnsSnapshotStorage {
  return {
    where: 'table ranking_columns_parts',
    read: async (): Promise<ColumnsSnapshotRead | undefined> => {
      const parts = await store.rankingColumns.parts();
      if (parts.length === 0) return undefined;
      // One buffer starting at 0, as a file's read gives: the typed arrays are views of it.
      const bytes = new Uint8Array(new ArrayBuffer(parts.reduce((sum, part) => sum + part.length, 0)));
      let at = 0;
      for (const part of parts.splice(0)) {
        bytes.set(part, at);
        at += part.length;
      }
      return decodeColumnsSnapshot(bytes);
    },
    write: async (header, state) => {
      const encoded = await encodeColumnsSnapshot(header, state);
      const head = {
        version: COLUMNS_SNAPSHOT_VERSION,
        epoch: header.epoch,
        read_from: new Date(header.readFrom).toISOString(),
        loaded_at: new Date(header.loadedAt).toISOString(),
        votes: state.counts.size,
        bytes: encoded.bytes,
        written_at: runtime.now().toISOString(),
      };
      return store.transaction((repositories) => repositories.rankingColumns.replace(head, columnsSnapshotParts(encoded, partBytes)));
    },
  };
}
