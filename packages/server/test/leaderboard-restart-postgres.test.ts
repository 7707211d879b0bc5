import type { LeaderboardBody } from '@agora/contract';
import type SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WorkerRankingComputer } from '../src/adapters/ranking-worker/ranking-computer';
import { parseCatalogue } from '../src/config/catalogue';
import { loadConfig } from '../src/config/config';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import { createArena, listen } from '../src/main';
import { LeaderboardService, type RefreshOutcome } from '../src/services/leaderboard.service';
import { duelWriter, SYNTHETIC_MODELS } from './synthetic-store';
import { DIALECTS, type TestStore } from './test-db';

/*
 * Issue 35, item 2 on PostgreSQL (the snapshot as table rows): a restart with nothing changed since
 * the snapshot serves the stored boards without a fit (services/leaderboard-unchanged.ts); one vote
 * since, and it fits. The SQLite file's case is in leaderboard-snapshot.test.ts.
 */

const postgres = DIALECTS.find((dialect) => dialect.name === 'postgres');
const modelsYaml = `models:\n${SYNTHETIC_MODELS.map((id) => `  - {id: ${id}, name: ${id}, organisation: test, license: MIT, open_weights: true, arch: dense, params_b: 7, provider: {type: openai-compatible, base_url: 'http://127.0.0.1:9/v1', model: ${id}}}`).join('\n')}\n`;
const catalogue = parseCatalogue(modelsYaml, 'restart-store.yaml', {});

/** Votes `from` … `from + count - 1` (synthetic duels), `stepMs` apart from `firstMs`, in batched inserts. */
async function addVotes(url: string, from: number, count: number, firstMs: number, stepMs = 1000): Promise<void> {
  const rows = new Map<string, unknown[][]>();
  // duelWriter prepares SQLite statements: this one gathers their rows (duels, turns, votes: in that order).
  const gatherer = {
    prepare: (text: string) => {
      rows.set(text, []);
      return { run: (...values: unknown[]) => void rows.get(text)!.push(values) };
    },
  };
  const write = duelWriter(gatherer as unknown as SqliteDatabase.Database, 53 + from);
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

/** Starts an arena in this process: its first refresh's outcome, its log lines, its board and how many fits the worker ran. */
async function start(url: string) {
  const environment = {
    DATABASE_URL: url,
    PORT: '0',
    AGORA_POSTPROCESS: 'false',
    AGORA_LEADERBOARD_MIN_VOTES: '1',
    AGORA_LEADERBOARD_SNAPSHOT_MINUTES: '10',
  };
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const refreshes = vi.spyOn(LeaderboardService.prototype, 'refresh');
  const fits = vi.spyOn(WorkerRankingComputer.prototype, 'computeViews');
  const config = loadConfig(environment);
  const arena = await createArena(config, environment, { catalogue, logger });
  const server = await listen(arena, config);
  try {
    const first = (await refreshes.mock.results[0]!.value) as RefreshOutcome;
    await arena.leaderboardRefresh.idle();
    // The snapshot job runs after the refresh event; asking again waits for its write.
    await arena.leaderboards.saveColumnsSnapshot();
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const board = (await (await fetch(`http://127.0.0.1:${port}/api/v1/leaderboard`)).json()) as LeaderboardBody;
    return { first, board, lines, fits: fits.mock.calls.length };
  } finally {
    refreshes.mockRestore();
    fits.mockRestore();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await arena.close();
  }
}

describe.skipIf(!postgres)('a restart on PostgreSQL with nothing changed since the snapshot', () => {
  let store: TestStore;
  let url: string;
  beforeAll(async () => {
    store = await postgres!.create();
    if (store.location.kind !== 'postgres') throw new Error('expected a PostgreSQL store');
    url = store.location.url;
    const kysely = openDatabase(store.location);
    await migrateToLatest(kysely);
    await kysely.destroy();
    await addVotes(url, 0, 5_000, Date.now() - 90_000 - 5_000 * 1000);
  }, 120_000);
  afterAll(async () => store?.drop());

  it('serves the stored boards without a fit; a vote since fits', { timeout: 300_000 }, async () => {
    const cold = await start(url);
    expect(cold.first).toMatchObject({ read: 'everything', fitted: true });
    expect(cold.fits).toBe(1);
    const same = await start(url);
    expect(same.first).toMatchObject({ read: 'changes', fitted: false, votes: 5_000 });
    expect(same.fits).toBe(0);
    expect(same.lines.some((line) => String(line.msg).includes('stored boards are served without a fit'))).toBe(true);
    expect(same.board).toEqual(cold.board);
    await addVotes(url, 5_000, 1, Date.now());
    const voted = await start(url);
    expect(voted.first).toMatchObject({ read: 'changes', fitted: true, votes: 5_001 });
    expect(voted.fits).toBe(1);
    expect(voted.board.n_votes).toBe(5_001);
  });
});
