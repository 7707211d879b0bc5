import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type StoreLocation, openDatabase } from '../src/db/dialect';

/** A fresh, empty store of one dialect, and how to throw it away. */
export interface TestStore {
  location: StoreLocation;
  drop(): Promise<void>;
}

export interface TestDialect {
  name: 'sqlite' | 'postgres';
  create(): Promise<TestStore>;
}

const sqlite: TestDialect = {
  name: 'sqlite',
  create: async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agora-test-'));
    return {
      location: { kind: 'sqlite', path: join(folder, 'agora.db') },
      drop: async () => rmSync(folder, { recursive: true, force: true }),
    };
  },
};

/** A new database on the server of TEST_DATABASE_URL for each store, dropped afterwards. */
function postgres(adminUrl: string): TestDialect {
  return {
    name: 'postgres',
    create: async () => {
      const name = `agora_test_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return {
        location: { kind: 'postgres', url: url.toString(), poolSize: 5 },
        drop: async () => {
          const cleaner = new pg.Client({ connectionString: adminUrl });
          await cleaner.connect();
          // Sessions of a pool that just ended may still be closing: give them a moment, since a forced
          // drop terminates them with an error that a client already ending no longer has a listener for.
          for (let attempt = 0; attempt < 40; attempt += 1) {
            try {
              await cleaner.query(`DROP DATABASE IF EXISTS ${name}`);
              break;
            } catch (error) {
              if ((error as { code?: string }).code !== '55006') throw error;
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
          }
          await cleaner.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await cleaner.end();
        },
      };
    },
  };
}

/**
 * Every store the suite runs on: the embedded SQLite file always, and the real PostgreSQL server
 * whenever TEST_DATABASE_URL is set (`npm test` and `.ci/run` start one and set it).
 */
if (process.env.CI === 'true' && !process.env.TEST_DATABASE_URL) {
  // In CI the PostgreSQL half is required: a run that quietly tested SQLite alone would look green.
  throw new Error('CI=true but TEST_DATABASE_URL is not set: the PostgreSQL half of the suite cannot be skipped in CI');
}
export const DIALECTS: TestDialect[] = process.env.TEST_DATABASE_URL ? [sqlite, postgres(process.env.TEST_DATABASE_URL)] : [sqlite];

/** Row counts of every table, read over a separate connection: to prove that a refused request changed nothing. */
export async function countRows(location: StoreLocation): Promise<Record<string, number>> {
  const db = openDatabase(location);
  try {
    const counts: Record<string, number> = {};
    for (const table of ['duels', 'turns', 'turn_sides', 'upstream_errors', 'reactions', 'votes', 'reports'] as const) {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .executeTakeFirstOrThrow();
      counts[table] = Number(row.count);
    }
    return counts;
  } finally {
    await db.destroy();
  }
}
