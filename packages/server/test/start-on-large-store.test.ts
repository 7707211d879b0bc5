import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LeaderboardBody } from '@agora/contract';
import SqliteDatabase from 'better-sqlite3';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../src/config/catalogue';
import { loadConfig } from '../src/config/config';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import { createArena, listen } from '../src/main';
import { duelWriter, SYNTHETIC_MODELS } from './synthetic-store';

/*
 * Issue 35: the server listens at once, whatever the store holds. The leaderboard's first refresh
 * reads every stored vote; the SQLite driver answers synchronously, so before each page yielded to
 * the event loop the port was bound only after the whole read (8.7 s on 300,000 votes here, 69 s
 * reported after a 300,000-vote import, minutes at 2.5 million).
 */

const VOTES = 300_000;
const folder = mkdtempSync(join(tmpdir(), 'agora-large-start-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const catalogue = parseCatalogue(
  `models:\n${SYNTHETIC_MODELS.map((id) => `  - {id: ${id}, name: ${id}, organisation: test, license: MIT, open_weights: true, arch: dense, params_b: 7, provider: {type: openai-compatible, base_url: 'http://127.0.0.1:9/v1', model: ${id}}}`).join('\n')}\n`,
  'large-store.yaml',
  {},
);

/** A store of `votes` voted duels, one a second, the last `endsDaysAgo` days ago. */
async function storeWith(votes: number, name: string, endsDaysAgo = 0): Promise<string> {
  const path = join(folder, name);
  const kysely = openDatabase({ kind: 'sqlite', path });
  await migrateToLatest(kysely);
  await kysely.destroy();
  const db = new SqliteDatabase(path);
  const write = duelWriter(db, 35);
  const now = Date.now() - endsDaysAgo * 86_400_000;
  db.transaction(() => {
    for (let index = 0; index < votes; index++) write(index, now - (votes - index) * 1000);
  })();
  db.close();
  return path;
}

/** Milliseconds from the start of createArena to the first answer of /healthz, and the arena to close. */
async function start(path: string) {
  const environment = { DATABASE_URL: `sqlite:${path}`, PORT: '0', AGORA_POSTPROCESS: 'false', AGORA_LEADERBOARD_MIN_VOTES: '1' };
  const config = loadConfig(environment);
  const started = performance.now();
  const arena = await createArena(config, environment, { catalogue, logger: pino({ level: 'silent' }) });
  const server = await listen(arena, config);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const health = await fetch(`http://127.0.0.1:${port}/healthz`);
  const healthMs = performance.now() - started;
  const close = async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await arena.close();
  };
  return { arena, port, health: health.status, healthMs, close };
}

describe('a start on a large store', () => {
  it('answers /healthz within 2 s of an empty store’s start, then ranks every vote in the background', { timeout: 180_000 }, async () => {
    const empty = await start(await storeWith(0, 'empty.db'));
    await empty.close();
    const large = await start(await storeWith(VOTES, 'large.db'));
    try {
      expect(large.health).toBe(200);
      expect(empty.health).toBe(200);
      expect(large.healthMs - empty.healthMs, `large ${large.healthMs.toFixed(0)} ms, empty ${empty.healthMs.toFixed(0)} ms`).toBeLessThan(
        2000,
      );
      // The read goes on behind the server: while it runs, requests are answered.
      const during = performance.now();
      expect((await fetch(`http://127.0.0.1:${large.port}/healthz`)).status).toBe(200);
      expect(performance.now() - during).toBeLessThan(1000);
      // The board says it is catching up rather than "0 votes of the 1 needed".
      const reading = (await (await fetch(`http://127.0.0.1:${large.port}/api/v1/leaderboard`)).json()) as LeaderboardBody;
      expect(reading.models).toEqual([]);
      expect(reading.catching_up?.total).toBe(VOTES);
      expect(reading.catching_up!.read).toBeLessThan(VOTES);
      await large.arena.leaderboardRefresh.idle();
      const board = (await (await fetch(`http://127.0.0.1:${large.port}/api/v1/leaderboard`)).json()) as LeaderboardBody;
      expect(board.n_votes).toBe(VOTES);
      expect(board.models).toHaveLength(SYNTHETIC_MODELS.length);
      expect(board.catching_up).toBeUndefined();
    } finally {
      await large.close();
    }
  });

  it(
    'answers /healthz within 2 s when every duel is past the retention period, and forgets them in the background',
    { timeout: 180_000 },
    async () => {
      // The retention purge runs at start: 300,000 old duels and votes take seconds to rewrite, which
      // the server once spent before it listened (minutes at millions of rows).
      const empty = await start(await storeWith(0, 'empty-old.db'));
      await empty.close();
      const path = await storeWith(VOTES, 'old.db', 400);
      const old = await start(path);
      try {
        expect(old.health).toBe(200);
        expect(old.healthMs - empty.healthMs, `old ${old.healthMs.toFixed(0)} ms, empty ${empty.healthMs.toFixed(0)} ms`).toBeLessThan(
          2000,
        );
      } finally {
        // Closing waits for the running purge.
        await old.close();
      }
      const db = new SqliteDatabase(path, { readonly: true });
      const kept = db.prepare("SELECT COUNT(*) AS n FROM duels WHERE visitor_hash NOT LIKE 'purged:%'").get() as { n: number };
      const hashed = db.prepare('SELECT COUNT(*) AS n FROM votes WHERE client_hash IS NOT NULL').get() as { n: number };
      db.close();
      expect(kept.n).toBe(0);
      expect(hashed.n).toBe(0);
    },
  );
});
