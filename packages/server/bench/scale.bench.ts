/**
 * Scale benchmark (`npm run bench -- scale`): the live leaderboard on stores of 250k and 2.5M votes
 * (AGORA_BENCH_SCALE_SIZES), each measured in a child process of its own:
 * - server RSS at rest (the votes kept as columns after the start's full read) and at the peak of a
 *   refresh (1,000 new votes since the start, read as changes), and the bytes per vote from the
 *   slope between the two sizes (goals: ≤ 100 at rest, ≤ 200 at the peak); the start's full read
 *   (time and peak) is shown too;
 * - the refresh's time against `agora leaderboard --votes` on the same votes written to a file, for
 *   the same views (the store's votes are all of mode `random`, with no language or topic: the
 *   refresh fits overall and mode=random, plain and style-controlled, the same votes twice);
 * - /healthz p99 during the refresh against idle (goal: within 2×);
 * - restarts from the snapshot of the kept votes that server wrote, with the 1,000 votes since it,
 *   then with none: the times until /healthz answers, until the live board answers with its stored
 *   fits (issue 35's row: goal ≤ 0.1 of the first start's full read) and until it has refreshed
 *   with the votes since the snapshot (the honest second figure).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../../..', import.meta.url).pathname;
const tsx = join(root, 'node_modules/tsx/dist/loader.mjs');
const worker = join(root, 'packages/server/bench/scale-worker.ts');
const SIZES = (process.env.AGORA_BENCH_SCALE_SIZES ?? '250000,2500000').split(',').map(Number);

interface Measured {
  votes: number;
  views: number;
  read: string;
  loadSeconds: number;
  loadPeakMb: number;
  restMb: number;
  peakMb: number;
  afterMb: number;
  refreshSeconds: number;
  healthIdleP99: number;
  healthDuringP99: number;
}

function cliSeconds(file: string, style: boolean): number {
  const started = performance.now();
  const result = spawnSync(join(root, 'bin/agora'), ['leaderboard', '--votes', file, '--format', 'json', ...(style ? ['--style'] : [])], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`agora leaderboard failed: ${result.stderr}`);
  return (performance.now() - started) / 1000;
}

/** What `scale-worker restart` prints: seconds from the start until each answer, and the first refresh. */
interface Restarted {
  healthzSeconds: number;
  boardSeconds: number;
  refreshedSeconds: number;
  read: string;
  fitted: boolean;
}

function restartOnce(store: string): Restarted {
  const output = execFileSync(process.execPath, ['--import', tsx, worker, 'restart', store], { encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').at(-1)!) as Restarted;
}

export async function run(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'agora-bench-scale-'));
  const rows: (Measured & { size: number; cli: number; storeMb: number })[] = [];
  const restarts: (Restarted & { size: number; since: string; fullSeconds: number })[] = [];
  process.stdout.write(
    '| votes | store | start: full read | its peak | RSS at rest | refresh peak | refresh | `agora leaderboard` (same views) | ratio | /healthz p99 idle | during | load |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n',
  );
  try {
    for (const size of SIZES) {
      const store = join(folder, `scale-${size}.db`);
      const file = join(folder, `votes-${size}.jsonl`);
      execFileSync(process.execPath, ['--import', tsx, worker, 'generate', store, file, String(size)]);
      const measured = JSON.parse(
        execFileSync(process.execPath, ['--expose-gc', '--import', tsx, worker, 'measure', store], { encoding: 'utf8' })
          .trim()
          .split('\n')
          .at(-1)!,
      ) as Measured;
      // The views of the refresh, from the file: plain and style-controlled, twice (overall and mode=random hold the same votes).
      const cli = 2 * (cliSeconds(file, false) + cliSeconds(file, true));
      // A restart from the kept votes' snapshot the measured server wrote, against that server's full read.
      // The first restart writes the snapshot again after its refresh: the second finds no vote since.
      for (const since of ['1,000 votes', 'none']) restarts.push({ size, since, ...restartOnce(store), fullSeconds: measured.loadSeconds });
      const row = { ...measured, size, cli, storeMb: statSync(store).size / 1e6 };
      rows.push(row);
      process.stdout.write(
        `| ${size.toLocaleString('en')} | ${row.storeMb.toFixed(0)} MB | ${row.loadSeconds.toFixed(1)} s | ${row.loadPeakMb.toFixed(0)} MB | ${row.restMb.toFixed(0)} MB | ${row.peakMb.toFixed(0)} MB | ${row.refreshSeconds.toFixed(2)} s (${row.views} views, ${row.read}) | ${cli.toFixed(1)} s | ${(row.refreshSeconds / cli).toFixed(2)} | ${row.healthIdleP99.toFixed(1)} ms | ${row.healthDuringP99.toFixed(1)} ms | ${loadavg()[0]!.toFixed(1)} |\n`,
      );
      rmSync(store, { force: true });
      rmSync(`${store}.ranking-columns`, { force: true });
      rmSync(file, { force: true });
    }
    process.stdout.write(
      "\n| votes | since the snapshot | start until /healthz | until the live board answers (stored fits) | until it refreshed | first refresh | the same server's full read (yardstick) | board answers / full read (goal ≤ 0.1) | refreshed / full read |\n|---:|---|---:|---:|---:|---|---:|---:|---:|\n",
    );
    for (const restart of restarts)
      process.stdout.write(
        `| ${restart.size.toLocaleString('en')} | ${restart.since} | ${restart.healthzSeconds.toFixed(2)} s | ${restart.boardSeconds.toFixed(2)} s | ${restart.refreshedSeconds.toFixed(2)} s | ${restart.read}, ${restart.fitted ? 'fitted' : 'no fit'} | ${restart.fullSeconds.toFixed(2)} s | ${(restart.boardSeconds / restart.fullSeconds).toFixed(3)} | ${(restart.refreshedSeconds / restart.fullSeconds).toFixed(3)} |\n`,
      );
    if (rows.length >= 2) {
      const [small, large] = [rows[0]!, rows[rows.length - 1]!];
      const slope = (key: 'restMb' | 'peakMb' | 'loadPeakMb') => ((large[key] - small[key]) * 1e6) / (large.size - small.size);
      process.stdout.write(
        `\nBytes per vote (slope ${small.size.toLocaleString('en')} → ${large.size.toLocaleString('en')}): at rest ${slope('restMb').toFixed(0)} (goal ≤ 100), at the peak of a refresh ${slope('peakMb').toFixed(0)} (goal ≤ 200); at the peak of the start's full read ${slope('loadPeakMb').toFixed(0)}.\n` +
          `Refresh against the file-based ranking of the same views at ${large.size.toLocaleString('en')}: ${(large.refreshSeconds / large.cli).toFixed(2)}× (goal ≤ 1.5×); /healthz p99 during a refresh ${(large.healthDuringP99 / large.healthIdleP99).toFixed(2)}× idle (goal ≤ 2×).\n`,
      );
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
