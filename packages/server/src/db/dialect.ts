import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database';

/** Where the store lives: an embedded SQLite file or a PostgreSQL server. */
export type StoreLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; poolSize?: number };

export interface OpenOptions {
  /**
   * SQLite: copy the write-ahead log into the database from a thread of its own instead of in the
   * commit that fills it (for the server, whose event loop must not stop; see {@link checkpointInBackground}).
   */
  backgroundCheckpoints?: boolean;
}

/** Opens the store. SQLite runs in WAL mode so readers never wait for the writer. */
export function openDatabase(location: StoreLocation, options: OpenOptions = {}): Kysely<Database> {
  if (location.kind === 'sqlite') {
    if (location.path !== ':memory:') mkdirSync(dirname(location.path), { recursive: true });
    const sqlite = new SqliteDatabase(location.path);
    sqlite.pragma('journal_mode = WAL');
    // NORMAL is durable against process crashes in WAL mode; only a power loss can drop the last commits.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // A deleted row's bytes are overwritten with zeros, not left in free pages: a visitor's erased
    // duel (services/my-duels.service.ts) is gone from the file, not only from the tables.
    sqlite.pragma('secure_delete = ON');
    sqlite.pragma('busy_timeout = 5000');
    const stopCheckpoints =
      options.backgroundCheckpoints && location.path !== ':memory:' ? checkpointInBackground(sqlite, location.path) : undefined;
    return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, stopCheckpoints) }) });
  }
  const pool = new pg.Pool({ connectionString: location.url, max: location.poolSize ?? 10 });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * Kysely prepares every query anew; better-sqlite3 statements are reusable, and preparing is a
 * good part of a small query's cost. The arena runs a few dozen distinct statements, so a bounded
 * map of them is enough.
 */
function withStatementCache(sqlite: SqliteDatabase.Database, beforeClose?: () => void): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property === 'close' && beforeClose) {
        return () => {
          beforeClose();
          return target.close();
        };
      }
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

/** How often the checkpoint thread copies the write-ahead log into the database. */
const CHECKPOINT_EVERY_MS = 1000;

/**
 * Turns off SQLite's automatic checkpoints on `sqlite` and runs passive ones every second from a
 * worker thread with its own connection. An automatic checkpoint runs inside the commit that
 * fills the log (1,000 pages), copying and syncing it there: measured on this machine, 21 of 3,000
 * commits of 20 KB stopped for 5-17 ms each, nearly half of all the time spent writing, with the
 * arena's event loop stopped with them. A passive checkpoint waits for no one and makes no one wait.
 * Returns the function that stops the thread (the last connection to close checkpoints what is left).
 */
function checkpointInBackground(sqlite: SqliteDatabase.Database, path: string): () => void {
  sqlite.pragma('wal_autocheckpoint = 0');
  // Once checkpointed, the log is written again from its start; this cuts a log file that a burst made large.
  sqlite.pragma('journal_size_limit = 33554432');
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.path, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
} catch (error) {
  parentPort.postMessage(String(error));
  parentPort.close();
}
if (db) {
  const timer = setInterval(() => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch (error) {
      parentPort.postMessage(String(error));
    }
  }, workerData.everyMs);
  parentPort.once('message', () => {
    clearInterval(timer);
    db.close();
    parentPort.close();
  });
}`,
    { eval: true, workerData: { path, everyMs: CHECKPOINT_EVERY_MS, driver: createRequire(import.meta.url).resolve('better-sqlite3') } },
  );
  let stopped = false;
  // After a stop, the store may be gone already (a test that drops it at once): nothing to say then.
  const warn = (message: unknown) => {
    if (!stopped) process.emitWarning(`SQLite background checkpoint failed: ${String(message)}`);
  };
  worker.on('message', warn);
  worker.on('error', warn);
  worker.unref();
  return () => {
    stopped = true;
    worker.postMessage('stop');
  };
}
