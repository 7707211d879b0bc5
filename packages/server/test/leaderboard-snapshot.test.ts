import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LeaderboardBody } from '@agora/contract';
import SqliteDatabase from 'better-sqlite3';
import { pino } from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseCatalogue } from '../src/config/catalogue';
import { loadConfig } from '../src/config/config';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import { createArena, listen } from '../src/main';
import { WorkerRankingComputer } from '../src/adapters/ranking-worker/ranking-computer';
import { LeaderboardService, type RefreshOutcome } from '../src/services/leaderboard.service';
import { duelWriter, SYNTHETIC_MODELS } from './synthetic-store';

/*
 * Issue 35, item 2: a restart serves the board from the kept votes' snapshot and catches up from
 * it; a torn, stale or interrupted snapshot is never trusted, and the board always equals a full
 * refit of the store (a server started with snapshots off). The SQLite file here; the PostgreSQL
 * table in leaderboard-snapshot-postgres.test.ts.
 */

const folder = mkdtempSync(join(tmpdir(), 'agora-snapshot-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const agoraBin = fileURLToPath(new URL('../../../bin/agora', import.meta.url));
const modelsYaml = `models:\n${SYNTHETIC_MODELS.map((id) => `  - {id: ${id}, name: ${id}, organisation: test, license: MIT, open_weights: true, arch: dense, params_b: 7, provider: {type: openai-compatible, base_url: 'http://127.0.0.1:9/v1', model: ${id}}}`).join('\n')}\n`;
const catalogue = parseCatalogue(modelsYaml, 'snapshot-store.yaml', {});

/** A store of `votes` synthetic votes, one a second up to a minute and a half ago (older than the late-commit margin). */
async function storeWith(votes: number, name: string): Promise<string> {
  const path = join(folder, name);
  const kysely = openDatabase({ kind: 'sqlite', path });
  await migrateToLatest(kysely);
  await kysely.destroy();
  addVotes(path, 0, votes, Date.now() - 90_000 - votes * 1000);
  return path;
}

/** Writes votes `from` … `from + count - 1` straight into the store, `stepMs` apart from `firstMs`. */
function addVotes(path: string, from: number, count: number, firstMs: number, stepMs = 1000): void {
  const db = new SqliteDatabase(path);
  const write = duelWriter(db, 35 + from);
  db.transaction(() => {
    for (let index = from; index < from + count; index++) write(index, firstMs + (index - from) * stepMs);
  })();
  db.close();
}

/**
 * Starts an arena in this process; its first refresh's outcome, its log lines, the time until that
 * refresh ended and how many fits the ranking worker ran.
 */
async function start(path: string, snapshotMinutes: string, more: Record<string, string> = {}) {
  const environment = {
    DATABASE_URL: `sqlite:${path}`,
    PORT: '0',
    AGORA_POSTPROCESS: 'false',
    AGORA_LEADERBOARD_MIN_VOTES: '1',
    AGORA_LEADERBOARD_SNAPSHOT_MINUTES: snapshotMinutes,
    ...more,
  };
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const refreshes = vi.spyOn(LeaderboardService.prototype, 'refresh');
  const fits = vi.spyOn(WorkerRankingComputer.prototype, 'computeViews');
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
    return { first, refreshedMs, board, lines, fits: fits.mock.calls.length };
  } finally {
    refreshes.mockRestore();
    fits.mockRestore();
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

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Spawns `agora serve`, which catches up from the snapshot and writes a new one; kills it with SIGKILL while the new one is being written. */
async function killDuringWrite(path: string): Promise<{ sawTemporary: boolean }> {
  writeFileSync(join(folder, 'models.yaml'), modelsYaml);
  const temporary = `${path}.ranking-columns.tmp`;
  const child = spawn(agoraBin, ['serve'], {
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${path}`,
      AGORA_MODELS: join(folder, 'models.yaml'),
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      AGORA_POSTPROCESS: 'false',
      AGORA_LEADERBOARD_MIN_VOTES: '1',
      // Every refresh is followed by a write.
      AGORA_LEADERBOARD_SNAPSHOT_MINUTES: '0.0001',
    },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = performance.now() + 400_000;
  let sawTemporary = false;
  while (performance.now() < deadline && child.exitCode === null) {
    if (existsSync(temporary)) {
      child.kill('SIGKILL');
      sawTemporary = true;
      break;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!sawTemporary) child.kill('SIGKILL');
  await exited;
  return { sawTemporary };
}

describe('the kept votes snapshot (SQLite)', () => {
  it(
    'a restart catches up from the snapshot, survives kill -9 during a write, and boards equal a full refit',
    { timeout: 1_200_000 },
    async () => {
      const path = await storeWith(300_000, 'large.db');
      const snapshot = `${path}.ranking-columns`;
      // A first start reads every vote and writes the snapshot.
      const cold = await start(path, '10');
      expect(cold.first.read).toBe('everything');
      expect(existsSync(snapshot)).toBe(true);
      const written = readFileSync(snapshot);
      // Votes cast after the snapshot, before the restart.
      addVotes(path, 300_000, 1_000, Date.now(), 1);
      // A server catches up from it and is killed while it writes the next one: the old one stays whole.
      const killed = await killDuringWrite(path);
      expect(killed.sawTemporary).toBe(true);
      expect(readFileSync(snapshot).equals(written)).toBe(true);
      const warm = await start(path, '10');
      const refit = await start(path, '0');
      expect(warm.first.read).toBe('changes');
      expect(refit.first.read).toBe('everything');
      expect(warm.lines.some((line) => String(line.msg).startsWith('leaderboard snapshot loaded'))).toBe(true);
      expect(refit.board.n_votes).toBe(301_000);
      expectSameBoard(warm.board, refit.board);
      process.stdout.write(
        `start until the live board refreshed, 301,000 votes: from the snapshot ${(warm.refreshedMs / 1000).toFixed(2)} s, full read ${(refit.refreshedMs / 1000).toFixed(2)} s, ratio ${(warm.refreshedMs / refit.refreshedMs).toFixed(3)} (goal ≤ 0.1)\n`,
      );
    },
  );

  it(
    'a restart with nothing changed since the snapshot serves the stored boards without a fit; a vote or a setting changed since refits',
    { timeout: 300_000 },
    async () => {
      const path = await storeWith(20_000, 'unchanged.db');
      const cold = await start(path, '10');
      expect(cold.first).toMatchObject({ read: 'everything', fitted: true });
      expect(cold.fits).toBe(1);
      // Writes the snapshot again after its refresh: the next start must find the boards current too.
      const same = await start(path, '0.0001');
      expect(same.first).toMatchObject({ read: 'changes', fitted: false, votes: 20_000 });
      expect(same.fits).toBe(0);
      expect(same.lines.some((line) => String(line.msg).includes('stored boards are served without a fit'))).toBe(true);
      expect(same.lines.some((line) => String(line.msg).startsWith('leaderboard snapshot written'))).toBe(true);
      expect(same.board).toEqual(cold.board);
      const again = await start(path, '10');
      expect(again.first).toMatchObject({ read: 'changes', fitted: false });
      expect(again.board).toEqual(cold.board);
      // A setting the boards carry (the minimum of votes) changed: the stored boards are not current.
      const setting = await start(path, '10', { AGORA_LEADERBOARD_MIN_VOTES: '2' });
      expect(setting.first).toMatchObject({ read: 'changes', fitted: true });
      expect(setting.fits).toBe(1);
      expect(setting.board.min_votes).toBe(2);
      // Ten votes since the snapshot: read as changes, and fitted.
      addVotes(path, 20_000, 10, Date.now(), 1);
      const voted = await start(path, '10');
      expect(voted.first).toMatchObject({ read: 'changes', fitted: true, votes: 20_010 });
      expect(voted.fits).toBe(1);
      expect(voted.board.n_votes).toBe(20_010);
    },
  );

  it(
    'a torn, altered or stale snapshot is logged, ignored and written anew; the board equals a full refit',
    { timeout: 300_000 },
    async () => {
      const path = await storeWith(20_000, 'small.db');
      const snapshot = `${path}.ranking-columns`;
      const refit = await start(path, '0');
      expect(existsSync(snapshot)).toBe(false);
      await start(path, '10');
      const good = readFileSync(snapshot);
      writeFileSync(snapshot, good.subarray(0, good.length - 4096));
      const torn = await start(path, '10');
      expect(warned(torn.lines, 'torn')).toBe(true);
      expect(torn.first.read).toBe('everything');
      expectSameBoard(torn.board, refit.board);
      expect(readFileSync(snapshot).length).toBe(good.length);
      const flipped = Buffer.from(readFileSync(snapshot));
      flipped[flipped.length - 100]! ^= 1;
      writeFileSync(snapshot, flipped);
      const altered = await start(path, '10');
      expect(warned(altered.lines, 'checksum')).toBe(true);
      expect(altered.first.read).toBe('everything');
      expectSameBoard(altered.board, refit.board);
      // A purge or an import moved the ranking epoch: the snapshot's votes may have changed.
      const db = new SqliteDatabase(path);
      db.prepare('UPDATE ranking_epoch SET epoch = epoch + 1 WHERE id = 1').run();
      db.close();
      const stale = await start(path, '10');
      expect(warned(stale.lines, 'epoch')).toBe(true);
      expect(stale.first.read).toBe('everything');
      expectSameBoard(stale.board, refit.board);
      // Rewritten at the new epoch: the next start trusts it.
      expect((await start(path, '10')).first.read).toBe('changes');
    },
  );
});
