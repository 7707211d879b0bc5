import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LeaderboardBody } from '@agora/contract';
import type SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseCatalogue } from '../src/config/catalogue';
import { loadConfig } from '../src/config/config';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import { createArena, listen } from '../src/main';
import { LeaderboardService, type RefreshOutcome } from '../src/services/leaderboard.service';
import { duelWriter, SYNTHETIC_MODELS } from './synthetic-store';
import { DIALECTS, type TestStore } from './test-db';

/*
 * Issue 35, item 2 on PostgreSQL: the kept votes' snapshot as rows of ranking_columns_parts,
 * written in one transaction. A restart catches up from it; a corrupted, stale or restored-over
 * snapshot is logged and never trusted; a writer killed mid-transaction leaves the old rows; the
 * board always equals a full refit (a server started with snapshots off).
 */

const postgres = DIALECTS.find((dialect) => dialect.name === 'postgres');
const folder = mkdtempSync(join(tmpdir(), 'agora-pg-snapshot-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const agoraBin = fileURLToPath(new URL('../../../bin/agora', import.meta.url));
const modelsYaml = `models:\n${SYNTHETIC_MODELS.map((id) => `  - {id: ${id}, name: ${id}, organisation: test, license: MIT, open_weights: true, arch: dense, params_b: 7, provider: {type: openai-compatible, base_url: 'http://127.0.0.1:9/v1', model: ${id}}}`).join('\n')}\n`;
const catalogue = parseCatalogue(modelsYaml, 'snapshot-store.yaml', {});

/** Votes `from` … `from + count - 1` (the SQLite test's synthetic duels), `stepMs` apart from `firstMs`, in batched inserts. */
async function addVotes(url: string, from: number, count: number, firstMs: number, stepMs = 1000): Promise<void> {
  const rows = new Map<string, unknown[][]>();
  // duelWriter prepares SQLite statements: this one gathers their rows (duels, turns, votes: in that order).
  const gatherer = {
    prepare: (text: string) => {
      rows.set(text, []);
      return { run: (...values: unknown[]) => void rows.get(text)!.push(values) };
    },
  };
  const write = duelWriter(gatherer as unknown as SqliteDatabase.Database, 35 + from);
  for (let index = from; index < from + count; index++) write(index, firstMs + (index - from) * stepMs);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const [text, values] of rows) {
      const at = text.indexOf(' VALUES ');
      const tuple = text.slice(at + ' VALUES '.length);
      for (let start = 0; start < values.length; start += 1000) {
        const batch = values.slice(start, start + 1000);
        let parameter = 0;
        const tuples = batch.map(() => tuple.replace(/\?/g, () => `$${++parameter}`)).join(', ');
        await client.query(`${text.slice(0, at)} VALUES ${tuples}`, batch.flat());
      }
    }
  } finally {
    await client.end();
  }
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** The stored snapshot's bytes, as one digest, and its parts. */
const storedDigest = async (url: string) =>
  (
    await query<{ digest: string | null; parts: string }>(
      url,
      "SELECT md5(string_agg(bytes, ''::bytea ORDER BY part)) AS digest, count(*) AS parts FROM ranking_columns_parts",
    )
  )[0]!;

/** Starts an arena in this process; its first refresh's outcome, its log lines and its board. */
async function start(url: string, snapshotMinutes: string) {
  const environment = {
    DATABASE_URL: url,
    PORT: '0',
    AGORA_POSTPROCESS: 'false',
    AGORA_LEADERBOARD_MIN_VOTES: '1',
    AGORA_LEADERBOARD_SNAPSHOT_MINUTES: snapshotMinutes,
  };
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const refreshes = vi.spyOn(LeaderboardService.prototype, 'refresh');
  const config = loadConfig(environment);
  const started = performance.now();
  const arena = await createArena(config, environment, { catalogue, logger });
  const server = await listen(arena, config);
  try {
    const first = (await refreshes.mock.results[0]!.value) as RefreshOutcome;
    const refreshedMs = performance.now() - started;
    await arena.leaderboardRefresh.idle();
    // The snapshot job runs after the refresh event; asking again waits for its write.
    await arena.leaderboards.saveColumnsSnapshot();
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const board = (await (await fetch(`http://127.0.0.1:${port}/api/v1/leaderboard`)).json()) as LeaderboardBody;
    return { first, refreshedMs, board, lines };
  } finally {
    refreshes.mockRestore();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await arena.close();
  }
}

function expectSameBoard(board: LeaderboardBody, refit: LeaderboardBody): void {
  expect(board.n_votes).toBe(refit.n_votes);
  expect(board.models.map((row) => row.model)).toEqual(refit.models.map((row) => row.model));
  board.models.forEach((row, index) => {
    expect(Math.abs(row.rating - refit.models[index]!.rating), row.model).toBeLessThan(1e-9);
    expect(Math.abs(row.se - refit.models[index]!.se), row.model).toBeLessThan(1e-9);
  });
}

const warned = (lines: Record<string, unknown>[], words: string) =>
  lines.some((line) => String(line.msg).startsWith('leaderboard snapshot ignored') && String(line.reason).includes(words));
const loaded = (lines: Record<string, unknown>[]) => lines.some((line) => String(line.msg).startsWith('leaderboard snapshot loaded'));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `agora serve`, which catches up from the snapshot and writes a new one, and kills it with
 * SIGKILL inside that write's transaction: the test holds the header row, so the writer has
 * replaced every part (uncommitted) and waits for that row when it dies.
 */
async function killInsideWrite(url: string): Promise<{ caught: boolean }> {
  writeFileSync(join(folder, 'models.yaml'), modelsYaml);
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query('SELECT id FROM ranking_columns_snapshot WHERE id = 1 FOR UPDATE');
  const watcher = new pg.Client({ connectionString: url });
  await watcher.connect();
  const child = spawn(agoraBin, ['serve'], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      AGORA_MODELS: join(folder, 'models.yaml'),
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      AGORA_POSTPROCESS: 'false',
      AGORA_LEADERBOARD_MIN_VOTES: '1',
      AGORA_LEADERBOARD_SNAPSHOT_MINUTES: '0.0001',
    },
    // Its log, for a failure's diagnosis.
    stdio: ['ignore', openSync(join(folder, 'killed-server.log'), 'w'), 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = performance.now() + 120_000;
  let caught = false;
  try {
    while (performance.now() < deadline && child.exitCode === null) {
      // Another session: inside the holder's transaction pg_stat_activity would stay as first read.
      const waiting = await watcher.query(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%ranking_columns_snapshot%' AND pid <> pg_backend_pid()",
      );
      if (Number((waiting.rows[0] as { n: string }).n) > 0) {
        caught = true;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    child.kill('SIGKILL');
    await exited;
    await holder.query('ROLLBACK');
    await holder.end();
    await watcher.end();
  }
  if (!caught) process.stdout.write(readFileSync(join(folder, 'killed-server.log'), 'utf8').slice(-3000));
  return { caught };
}

describe.skipIf(!postgres)('the kept votes snapshot (PostgreSQL table)', () => {
  let store: TestStore;
  let url: string;
  beforeAll(async () => {
    store = await postgres!.create();
    if (store.location.kind !== 'postgres') throw new Error('expected a PostgreSQL store');
    url = store.location.url;
    const kysely = openDatabase(store.location);
    await migrateToLatest(kysely);
    await kysely.destroy();
    await addVotes(url, 0, 20_000, Date.now() - 90_000 - 20_000 * 1000);
  }, 120_000);
  afterAll(async () => store?.drop());

  it(
    'a restart catches up from the row; a writer killed mid-transaction leaves the old rows; boards equal a full refit',
    { timeout: 300_000 },
    async () => {
      const cold = await start(url, '10');
      expect(cold.first.read).toBe('everything');
      const [head] = await query<{ votes: number; parts: number; version: number }>(
        url,
        'SELECT votes, parts, version FROM ranking_columns_snapshot',
      );
      expect(head).toMatchObject({ votes: 20_000, version: 1 });
      const written = await storedDigest(url);
      expect(Number(written.parts)).toBe(head!.parts);
      // Votes cast after the snapshot, before the restart.
      await addVotes(url, 20_000, 800, Date.now(), 1);
      const killed = await killInsideWrite(url);
      expect(killed.caught).toBe(true);
      // PostgreSQL rolled the killed writer's transaction back: the old snapshot, byte for byte.
      expect(await storedDigest(url)).toEqual(written);
      const warm = await start(url, '10');
      expect(warm.first.read).toBe('changes');
      expect(loaded(warm.lines)).toBe(true);
      const refit = await start(url, '0');
      expect(refit.first.read).toBe('everything');
      expect(refit.board.n_votes).toBe(20_800);
      expectSameBoard(warm.board, refit.board);
      process.stdout.write(
        `PostgreSQL, start until the live board refreshed, 20,800 votes: from the snapshot row ${(warm.refreshedMs / 1000).toFixed(2)} s, full read ${(refit.refreshedMs / 1000).toFixed(2)} s, ratio ${(warm.refreshedMs / refit.refreshedMs).toFixed(3)}\n`,
      );
      // A catch-up is written again only once the interval has passed (10 minutes here); the row still serves the next start.
      expect(await storedDigest(url)).toEqual(written);
      expect((await start(url, '10')).first.read).toBe('changes');
    },
  );

  it(
    'a corrupted row, a stale epoch, votes deleted behind it: logged, every vote read, the board equals a full refit',
    { timeout: 300_000 },
    async () => {
      await start(url, '10');
      const refit = await start(url, '0');
      // One bit of the last part flipped in place.
      await query(
        url,
        'UPDATE ranking_columns_parts SET bytes = set_byte(bytes, length(bytes) - 100, get_byte(bytes, length(bytes) - 100) # 1) WHERE part = (SELECT max(part) FROM ranking_columns_parts)',
      );
      const altered = await start(url, '10');
      expect(warned(altered.lines, 'checksum')).toBe(true);
      expect(altered.first.read).toBe('everything');
      expectSameBoard(altered.board, refit.board);
      // A purge or an import moved the ranking epoch.
      await query(url, 'UPDATE ranking_epoch SET epoch = epoch + 1 WHERE id = 1');
      const stale = await start(url, '10');
      expect(warned(stale.lines, 'epoch')).toBe(true);
      expect(stale.first.read).toBe('everything');
      expectSameBoard(stale.board, refit.board);
      expect((await start(url, '10')).first.read).toBe('changes');
      // An older copy of the store restored under a newer snapshot: it holds votes the store lacks.
      await query(url, 'DELETE FROM votes WHERE duel_id IN (SELECT duel_id FROM votes ORDER BY created_at LIMIT 500)');
      const restored = await start(url, '10');
      expect(warned(restored.lines, 'holds')).toBe(true);
      expect(restored.first.read).toBe('everything');
      const smaller = await start(url, '0');
      expect(smaller.board.n_votes).toBe(refit.board.n_votes - 500);
      expectSameBoard(restored.board, smaller.board);
    },
  );
});
