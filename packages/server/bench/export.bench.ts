/**
 * Export benchmark (issue 6): seeded synthetic SQLite stores of 100k and 1M conversations (1–3
 * turns, 60 % voted, 20 % with a reaction, a few flagged, reported or unscreened), exported to
 * Parquet (all six datasets: compar:IA's three in both tiers, the training subsets in the public one,
 * nine file sets in all) in a child process of its own so that the peak RSS is the export's.
 * Goals: ≥ 20,000 conversations/s and ≤ 500 MB peak RSS at 1M. AGORA_BENCH_EXPORT_SIZES=100000
 * picks the sizes; AGORA_BENCH_THREADS=1 measures the worker-thread builders (`--threads`).
 * Issue 35's yardstick, in the same run: the libraries' own floor for the same rows (export-floor-worker.ts:
 * read the same columns in raw better-sqlite3, encode and compress the written files' rows again with
 * hyparquet-writer), as a ratio floor ÷ export (goal ≥ 0.8: the export within 25 % of the floor).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = join(root, 'node_modules/tsx/dist/loader.mjs');
const worker = fileURLToPath(new URL('./export-bench-worker.ts', import.meta.url));
const floorWorker = fileURLToPath(new URL('./export-floor-worker.ts', import.meta.url));
const SIZES = (process.env.AGORA_BENCH_EXPORT_SIZES ?? '100000,1000000').split(',').map(Number);

function node(args: string[], script = worker): string {
  return execFileSync(process.execPath, ['--import', tsx, script, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

interface Floor {
  read: { seconds: number; cpuSeconds: number };
  encode: { seconds: number; cpuSeconds: number };
}

/** One row of the floor table: the floor's parts, and the export's time as a multiple of it. */
function floorLine(size: number, measured: { seconds: number; cpuSeconds: number }, floor: Floor): string {
  const wall = floor.read.seconds + floor.encode.seconds;
  const cpu = floor.read.cpuSeconds + floor.encode.cpuSeconds;
  const ratio = wall / measured.seconds;
  return `| ${size.toLocaleString('en')} | ${floor.read.seconds.toFixed(1)} s | ${floor.encode.seconds.toFixed(1)} s | ${wall.toFixed(1)} s (${cpu.toFixed(1)} s CPU) | ${measured.seconds.toFixed(1)} s (${measured.cpuSeconds.toFixed(1)} s CPU) | ${ratio.toFixed(2)} | ${(cpu / measured.cpuSeconds).toFixed(2)} | ≥ 0.8 ${ratio >= 0.8 ? 'met' : 'not met'} |\n`;
}

export async function run(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'agora-bench-export-'));
  try {
    process.stdout.write(
      `builders: ${process.env.AGORA_BENCH_THREADS === '1' ? 'two worker threads (--threads)' : 'inline (default)'}\n\n`,
    );
    process.stdout.write(
      '| conversations | store | generate | export | conversations/s | CPU time | conversations per CPU-second | rows per subset (conv/votes/reactions/dpo/kto/reward) | Parquet (both tiers) | peak RSS | load |\n|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n',
    );
    const floors: string[] = [];
    for (const size of SIZES) {
      const store = join(folder, `store-${size}.db`);
      const generateStarted = performance.now();
      node(['generate', store, String(size)]);
      const generateSeconds = (performance.now() - generateStarted) / 1000;
      const out = join(folder, `out-${size}`);
      const measured = JSON.parse(node(['measure', store, out])) as {
        conversations: number;
        seconds: number;
        cpuSeconds: number;
        rows: Record<string, number>;
        outputMb: number;
        peakRssMb: number;
        load: number;
      };
      const rows = ['conversations', 'votes', 'reactions', 'dpo', 'kto', 'reward'].map((name) => measured.rows[name]).join('/');
      process.stdout.write(
        `| ${size.toLocaleString('en')} | ${(statSync(store).size / 1e6).toFixed(0)} MB | ${generateSeconds.toFixed(1)} s | ${measured.seconds.toFixed(1)} s | ${Math.round(measured.conversations / measured.seconds).toLocaleString('en')} | ${measured.cpuSeconds.toFixed(1)} s | ${Math.round(measured.conversations / measured.cpuSeconds).toLocaleString('en')} | ${rows} | ${measured.outputMb.toFixed(0)} MB | ${measured.peakRssMb.toFixed(0)} MB | ${measured.load.toFixed(1)} |\n`,
      );
      floors.push(floorLine(size, measured, JSON.parse(node(['floor', store, out], floorWorker)) as Floor));
      rmSync(store, { force: true });
      rmSync(out, { recursive: true, force: true });
    }
    process.stdout.write(
      `\nThe floor (same rows, same libraries: raw read + Parquet encode and Brotli of the written files; nothing of ours):\n\n| conversations | read | encode + compress | floor | export | floor ÷ export (wall) | floor ÷ export (CPU) | goal |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n${floors.join('')}`,
    );
    process.stdout.write(
      '\nGoals at 1M: ≥ 20,000 conversations/s to Parquet, ≤ 500 MB peak RSS. CPU time counts every thread; on a busy machine (load > cores) wall-clock time is mostly waiting.\n',
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
