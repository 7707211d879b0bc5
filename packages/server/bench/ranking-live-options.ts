/**
 * The ranking benchmark's live-board part (issue 34, docs/ranking.md#performance): the live
 * board's refresh with every option of issue 34 on, as a ratio to the refresh with none, on one
 * synthetic store of `AGORA_BENCH_LIVE_VOTES` votes (250,000 by default), in child processes
 * (live-options-worker.ts).
 * - none: prompt de-duplication off, no capability labels (so no capability views), no
 *   population board; the default views (overall, modes, topics; plain and style-controlled).
 * - all: de-duplication on (one vote per visitor and cluster, the cap, cluster_push), capability
 *   views, and the population board (computed on request, cached a minute: its time is added to
 *   both parts, as a refresh's worth of it).
 * Per-turn verdicts are not an option of the live board (`agora leaderboard --unit turn` only),
 * so they cost it nothing and are not in the store.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = join(root, 'node_modules/tsx/dist/loader.mjs');
const worker = fileURLToPath(new URL('./live-options-worker.ts', import.meta.url));

interface LiveMeasure {
  options: 'none' | 'all';
  views: number;
  votes: number;
  /** Medians of three trials, in ms. */
  full: number;
  incremental: number;
  population: number;
  /** The same medians in CPU time (all threads), steadier than wall time on a loaded machine. */
  cpu: { full: number; incremental: number; population: number };
}

function node(args: string[]): string {
  return execFileSync(process.execPath, ['--import', tsx, worker, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** A text bar of `ms` against the longest, 40 characters at most. */
function bar(ms: number, longest: number): string {
  return '█'.repeat(Math.max(1, Math.round((40 * ms) / longest)));
}

function format(none: LiveMeasure, all: LiveMeasure, votes: number, seconds_: number, load: string): string[] {
  const parts: [string, number, number, number, number][] = [
    ['full read + refresh', none.full, all.full + all.population, none.cpu.full, all.cpu.full + all.cpu.population],
    [
      `refresh after ${(1000).toLocaleString('en')} new votes`,
      none.incremental,
      all.incremental + all.population,
      none.cpu.incremental,
      all.cpu.incremental + all.cpu.population,
    ],
  ];
  const longest = Math.max(...parts.flatMap(([, off, on]) => [off, on]));
  const lines = [
    '',
    `live board, ${votes.toLocaleString('en')} votes (medians of 3, wall and CPU of all threads; none: ${none.views} views; all: ${all.views} views + the population board):`,
  ];
  for (const [label, off, on, offCpu, onCpu] of parts) {
    lines.push(`  ${label}`);
    lines.push(`    none ${seconds(off).padStart(8)} (CPU ${seconds(offCpu)}) ${bar(off, longest)}`);
    lines.push(
      `    all  ${seconds(on).padStart(8)} (CPU ${seconds(onCpu)}) ${bar(on, longest)} ${(on / off).toFixed(2)}× wall, ${(onCpu / offCpu).toFixed(2)}× CPU`,
    );
  }
  lines.push(
    `  of which the population board (computed on request, cached a minute): ${seconds(all.population)} (CPU ${seconds(all.cpu.population)})`,
    `  without the population board, all options cost ${(all.full / none.full).toFixed(2)}× wall (${(all.cpu.full / none.cpu.full).toFixed(2)}× CPU) a full read and ${(all.incremental / none.incremental).toFixed(2)}× wall (${(all.cpu.incremental / none.cpu.incremental).toFixed(2)}× CPU) a refresh`,
    `  part run time ${seconds_.toFixed(0)} s; load average before and after: ${load}`,
  );
  return lines;
}

/** Generates the store, measures both settings, and returns the report's lines. */
export function measureLiveOptions(): string[] {
  const votes = Number(process.env.AGORA_BENCH_LIVE_VOTES ?? 250_000);
  if (!Number.isInteger(votes) || votes < 1_000) throw new Error('AGORA_BENCH_LIVE_VOTES must be an integer ≥ 1000');
  const started = performance.now();
  const loadBefore = loadavg()[0]!.toFixed(1);
  const directory = mkdtempSync(join(tmpdir(), 'agora-live-options-'));
  try {
    process.stdout.write(`measuring the live board with and without issue 34's options on ${votes.toLocaleString('en')} votes…\n`);
    const withOptions = join(directory, 'all.db');
    const withoutOptions = join(directory, 'none.db');
    node(['generate', withOptions, String(votes)]);
    copyFileSync(withOptions, withoutOptions);
    node(['strip', withoutOptions]);
    const none = JSON.parse(node(['measure', withoutOptions, 'none'])) as LiveMeasure;
    const all = JSON.parse(node(['measure', withOptions, 'all'])) as LiveMeasure;
    const load = `${loadBefore} / ${loadavg()[0]!.toFixed(1)} (2 cores)`;
    return format(none, all, votes, (performance.now() - started) / 1000, load);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
