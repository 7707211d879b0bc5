import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database';

/** Where the store lives: an embedded SQLite file or a PostgreSQL server. */
export type StoreLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; poolSize?: number };

/** Opens the store. SQLite runs in WAL mode so readers never wait for the writer. */
export function openDatabase(location: StoreLocation): Kysely<Database> {
  if (location.kind === 'sqlite') {
    if (location.path !== ':memory:') mkdirSync(dirname(location.path), { recursive: true });
    const sqlite = new SqliteDatabase(location.path);
    sqlite.pragma('journal_mode = WAL');
    // NORMAL is durable against process crashes in WAL mode; only a power loss can drop the last commits.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  }
  const pool = new pg.Pool({ connectionString: location.url, max: location.poolSize ?? 10 });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * Kysely prepares every query anew; better-sqlite3 statements are reusable, and preparing is a
 * good part of a small query's cost. The arena runs a few dozen distinct statements, so a bounded
 * map of them is enough.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property !== 'prepare') return Reflect.get(target, property, receiver) as unknown;
      return (source: string) => {
        let statement = cache.get(source);
        // A statement still being iterated (a streamed query) cannot run again: give the caller a fresh one.
        if (statement?.busy) return prepare(source);
        if (!statement) {
          if (cache.size >= 500) cache.clear();
          statement = prepare(source);
          cache.set(source, statement);
        }
        return statement;
      };
    },
  });
}
