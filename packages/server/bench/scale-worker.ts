/**
 * Child process of the scale benchmark.
 * - `generate DB FILE N`: a SQLite store of N voted duels (one turn each, style counts, output
 *   tokens, energy, a client address; votes from 200k visitors among 40 models), and the same votes
 *   as a ranking file (JSON Lines: model_a, model_b, winner and the style counts) for `agora leaderboard`.
 * - `measure DB`: opens the arena on the store (post-processing off), samples this process's RSS,
 *   and prints one JSON line: the start's full read (time, peak), RSS at rest after it, then, with
 *   1,000 new votes written by another connection, the peak during a refresh, its time, and
 *   /healthz latencies idle and during it.
 * - `restart DB`: a start on that store, from the snapshot of its kept votes: the times until
 *   /healthz answers, until the live board answers with its models (the stored fits: issue 35's
 *   goal, ≤ 0.1 of the first start's full read) and until it has refreshed with the votes since the
 *   snapshot; then it writes the snapshot again, so that a second `restart` finds nothing since.
 */
import { createWriteStream } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import { pino } from 'pino';
import { loadConfig } from '../src/config/config';
import { parseCatalogue } from '../src/config/catalogue';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import { createArena, listen } from '../src/main';
import { LeaderboardService, type RefreshOutcome } from '../src/services/leaderboard.service';
import { duelWriter, SYNTHETIC_MODELS as MODELS } from '../test/synthetic-store';

async function generate(path: string, file: string, count: number): Promise<void> {
  const kysely = openDatabase({ kind: 'sqlite', path });
  await migrateToLatest(kysely);
  await kysely.destroy();
  const db = new SqliteDatabase(path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  const write = duelWriter(db, 20261201);
  const out = createWriteStream(file);
  // One vote a second, ending an hour ago: within the retention period (180 days by default), as an
  // arena's votes mostly are. Votes from a fixed date in January were all past it, and the start's
  // retention purge (now in the background) moved the ranking epoch behind the measured refresh.
  const start = Date.now() - count * 1000 - 3_600_000;
  let lines: string[] = [];
  const chunk = db.transaction((from: number, to: number) => {
    for (let index = from; index < to; index++) lines.push(write(index, start + index * 1000));
  });
  for (let from = 0; from < count; from += 50_000) {
    chunk(from, Math.min(count, from + 50_000));
    out.write(`${lines.join('\n')}\n`);
    lines = [];
  }
  await new Promise((resolve) => out.end(resolve));
  db.close();
}

const rssMb = () => process.memoryUsage.rss() / 1e6;
/** Votes cast between the start and the measured refresh. */
const NEW_VOTES = 1_000;

async function measure(path: string): Promise<void> {
  const catalogue = parseCatalogue(
    `models:\n${MODELS.map((id) => `  - {id: ${id}, name: ${id}, organisation: bench, license: MIT, open_weights: true, arch: dense, params_b: 7, provider: {type: openai-compatible, base_url: 'http://127.0.0.1:9/v1', model: ${id}}}`).join('\n')}\n`,
    'bench.yaml',
    {},
  );
  const environment = {
    DATABASE_URL: `sqlite:${path}`,
    PORT: '0',
    AGORA_POSTPROCESS: 'false',
    AGORA_LOG_LEVEL: 'silent',
    // Refreshes only when the bench asks.
    AGORA_LEADERBOARD_EVERY_S: '86400',
    AGORA_LEADERBOARD_MIN_VOTES: '1',
  };
  const config = loadConfig(environment);
  // The start: the store's votes read once into the kept columns (sampled like a refresh).
  let loadPeakMb = rssMb();
  const loadSampler = setInterval(() => (loadPeakMb = Math.max(loadPeakMb, rssMb())), 20);
  const loadStarted = performance.now();
  const arena = await createArena(config, environment, { catalogue, logger: pino({ level: 'silent' }) });
  const server = await listen(arena, config);
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const health = async (): Promise<number> => {
    const started = performance.now();
    await (await fetch(`${base}/healthz`)).text();
    return performance.now() - started;
  };
  const p99 = (values: number[]) => [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor(values.length * 0.99))]!;
  // The start's refresh, then rest.
  await arena.leaderboardRefresh.idle();
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  clearInterval(loadSampler);
  // At rest is between refreshes: the ranking thread stops after 10 s without work.
  const settle = async () => {
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    for (let round = 0; round < 3; round++) {
      (globalThis as { gc?: () => void }).gc?.();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  await settle();
  const restMb = rssMb();
  const idle: number[] = [];
  for (let index = 0; index < 200; index++) idle.push(await health());
  // New votes since the start, as another process would write them (a second connection to the
  // same file): the measured refresh reads them as changes.
  const writer = new SqliteDatabase(path);
  const write = duelWriter(writer, 7);
  const before = await arena.store.feedback.countVotes();
  writer.transaction(() => {
    for (let index = 0; index < NEW_VOTES; index++) write(before + index, Date.now());
  })();
  writer.close();
  // A refresh, sampled: RSS every 20 ms, /healthz as fast as it answers.
  let peakMb = rssMb();
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb())), 20);
  const during: number[] = [];
  const started = performance.now();
  let done = false;
  const refresh = arena.leaderboards.refresh().then((result) => {
    done = true;
    return result;
  });
  while (!done) during.push(await health());
  const result = await refresh;
  const refreshSeconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peakMb = Math.max(peakMb, rssMb());
  await settle();
  const afterMb = rssMb();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await arena.close();
  process.stdout.write(
    `${JSON.stringify({ votes: result.votes, views: result.views, read: result.read, loadSeconds, loadPeakMb, restMb, peakMb, afterMb, refreshSeconds, healthIdleP99: p99(idle), healthDuringP99: p99(during), healthDuringCount: during.length })}\n`,
  );
}

/** Seconds from `started` until `answered` says yes to a GET of `url` (asked again every 5 ms). */
async function secondsUntil(url: string, started: number, answered: (status: number, body: string) => boolean): Promise<number> {
  for (;;) {
    try {
      const response = await fetch(url);
      if (answered(response.status, await response.text())) return (performance.now() - started) / 1000;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * A restart on the store `measure` (or a previous `restart`) left, with the snapshot of its kept
 * votes beside it: seconds from the start until /healthz answers, until GET /api/v1/leaderboard
 * answers with a ranked board, and until the live board's first refresh ended; what that refresh
 * read and whether it fitted.
 */
async function restart(path: string): Promise<void> {
  const catalogue = parseCatalogue(
    `models:\n${MODELS.map((id) => `  - {id: ${id}, name: ${id}, organisation: bench, license: MIT, open_weights: true, arch: dense, params_b: 7, provider: {type: openai-compatible, base_url: 'http://127.0.0.1:9/v1', model: ${id}}}`).join('\n')}\n`,
    'bench.yaml',
    {},
  );
  // The snapshot is written after each refresh (0.0001 minutes), so that the next restart finds no vote since.
  const environment = {
    DATABASE_URL: `sqlite:${path}`,
    PORT: '0',
    AGORA_POSTPROCESS: 'false',
    AGORA_LEADERBOARD_MIN_VOTES: '1',
    AGORA_LEADERBOARD_SNAPSHOT_MINUTES: '0.0001',
  };
  const config = loadConfig(environment);
  const outcomes: (RefreshOutcome & { seconds: number })[] = [];
  let started = performance.now();
  // Wrapped before the start, whose job calls it at once.
  const refresh = Object.getOwnPropertyDescriptor(LeaderboardService.prototype, 'refresh')!.value as (
    this: LeaderboardService,
  ) => Promise<RefreshOutcome>;
  LeaderboardService.prototype.refresh = async function (this: LeaderboardService) {
    const outcome = await refresh.call(this);
    outcomes.push({ ...outcome, seconds: (performance.now() - started) / 1000 });
    return outcome;
  };
  started = performance.now();
  const arena = await createArena(config, environment, { catalogue, logger: pino({ level: 'silent' }) });
  const server = await listen(arena, config);
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const [healthzSeconds, boardSeconds] = await Promise.all([
    secondsUntil(`${base}/healthz`, started, (status) => status === 200),
    secondsUntil(
      `${base}/api/v1/leaderboard`,
      started,
      (status, body) => status === 200 && (JSON.parse(body) as { models: unknown[] }).models.length > 0,
    ),
  ]);
  await arena.leaderboardRefresh.idle();
  const first = outcomes[0]!;
  await arena.leaderboards.saveColumnsSnapshot();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await arena.close();
  process.stdout.write(
    `${JSON.stringify({ healthzSeconds, boardSeconds, refreshedSeconds: first.seconds, read: first.read, fitted: first.fitted ?? true })}\n`,
  );
}

const [command, ...args] = process.argv.slice(2);
if (command === 'generate') await generate(args[0]!, args[1]!, Number(args[2]));
else if (command === 'measure') await measure(args[0]!);
else if (command === 'restart') await restart(args[0]!);
else throw new Error(`scale-worker: unknown command ${command}`);
