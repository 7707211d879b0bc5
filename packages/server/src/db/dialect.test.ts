import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './dialect';

describe('SQLite checkpoints in the background', () => {
  let folder: string | undefined;
  afterEach(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
  });

  it('copies the log into the database from its own thread, never in a commit', async () => {
    folder = mkdtempSync(join(tmpdir(), 'agora-checkpoints-'));
    const path = join(folder, 'store.db');
    const db = openDatabase({ kind: 'sqlite', path }, { backgroundCheckpoints: true });
    try {
      const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
      expect(rows[0]!.wal_autocheckpoint).toBe(0);
      await sql`create table notes (id integer primary key, body text)`.execute(db);
      const body = 'x'.repeat(20_000);
      // 8 MB: past the 1,000 pages (4 MB) at which a commit would checkpoint by itself.
      for (let index = 0; index < 400; index += 1) await sql`insert into notes (body) values (${body})`.execute(db);
      const deadline = Date.now() + 5000;
      while (statSync(path).size < 8_000_000 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(statSync(path).size).toBeGreaterThanOrEqual(8_000_000);
      const { rows: count } = await sql<{ n: number }>`select count(*) as n from notes`.execute(db);
      expect(count[0]!.n).toBe(400);
    } finally {
      await db.destroy();
    }
  });
});
