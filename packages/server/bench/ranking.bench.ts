/**
 * Ranking benchmark (issue 3, docs/ranking.md#speed-anchors): seeded synthetic vote files of 250k and 2.5M votes
 * (110 models, ~27 % ties, style fields), each measured in a child process of its own so that the
 * peak RSS is the ranking's alone. Reports parse, aggregation, existence check, point fit,
 * standard errors, a 1,000-round bootstrap and the style-controlled fit, against the reference
 * oracle's anchors (numpy/scipy on this machine type, minimum of 2 runs).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatEndToEnd, measureEndToEnd, type EndToEnd } from './ranking-end-to-end';
import { measureLiveOptions } from './ranking-live-options';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = join(root, 'node_modules/tsx/dist/loader.mjs');
const worker = fileURLToPath(new URL('./ranking-bench-worker.ts', import.meta.url));
const ROUNDS = 1000;
const RUNS = 2;
/** Back-to-back trials of the oracle and the CLI on the 2.5M file (medians quoted). */
const TRIALS = 3;

/** Oracle anchors of docs/ranking.md#speed-anchors, in ms (bootstrap anchors are for 100 rounds). */
const ORACLE: Record<string, [number, number]> = {
  parse: [1730, 16300],
  aggregate: [1.2, 13.5],
  scc: [1.4, 1.2],
  pointFit: [9.2, 10.1],
  standardErrors: [1.7, 1.5],
  bootstrap100: [1200, 1340],
  styleFeatures: [20, 250],
  styleFit: [124, 1660],
  styleWithCovariance: [146, 2010],
  endToEnd: [2250, 16700],
  peakRssMb: [160, 970],
};

type Measurement = Record<string, number>;

function node(args: string[]): string {
  return execFileSync(process.execPath, ['--import', tsx, worker, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

function measureSize(directory: string, votes: number, endToEnd?: (file: string) => void): Measurement {
  const file = join(directory, `votes-${votes}.jsonl`);
  node(['generate', file, String(votes), '20240901']);
  const megabytes = statSync(file).size / 1e6;
  endToEnd?.(file);
  const runs = Array.from({ length: RUNS }, () => JSON.parse(node(['measure', file, String(ROUNDS)])) as Measurement);
  rmSync(file);
  const best: Measurement = { fileMb: megabytes };
  for (const key of Object.keys(runs[0]!)) best[key] = Math.min(...runs.map((run) => run[key]!));
  best.peakRssMb = Math.max(...runs.map((run) => run.peakRssMb!));
  best.load = Math.max(...runs.map((run) => run.load!));
  return best;
}

function format(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  return ms >= 10 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(1)} ms`;
}

export async function run(): Promise<void> {
  // `AGORA_BENCH_RANKING=live npm run bench -- ranking`: the live board's part alone (ranking-live-options.ts).
  if (process.env.AGORA_BENCH_RANKING === 'live') {
    process.stdout.write(`${measureLiveOptions().join('\n')}\n`);
    return;
  }
  // `AGORA_BENCH_RANKING=end-to-end npm run bench -- ranking`: the 2.5M end-to-end part alone.
  if (process.env.AGORA_BENCH_RANKING === 'end-to-end') {
    process.stdout.write(`${measureEndToEndAlone(2_500_000).join('\n')}\n`);
    return;
  }
  const directory = mkdtempSync(join(tmpdir(), 'agora-ranking-bench-'));
  try {
    const sizes = [250_000, 2_500_000];
    let endToEnd: EndToEnd | undefined;
    const results = sizes.map((votes) => {
      process.stdout.write(`measuring ${votes.toLocaleString('en')} votes (${RUNS} runs, best of)…\n`);
      const last = votes === sizes[sizes.length - 1];
      return measureSize(directory, votes, last ? (file) => (endToEnd = measureEndToEnd(file, TRIALS)) : undefined);
    });
    const rows: [string, string, (result: Measurement) => number, (index: number) => number][] = [
      ['parse JSONL (file → columns)', 'parse', (r) => r.parse!, (i) => ORACLE.parse![i]!],
      ['aggregate to pair cells (warm)', 'aggregate', (r) => r.aggregate!, (i) => ORACLE.aggregate![i]!],
      ['existence check (SCC, warm)', 'scc', (r) => r.scc!, (i) => ORACLE.scc![i]!],
      ['point estimate, bt_mle Newton (warm)', 'pointFit', (r) => r.pointFit!, (i) => ORACLE.pointFit![i]!],
      ['Hessian + sandwich SEs (warm)', 'standardErrors', (r) => r.standardErrors!, (i) => ORACLE.standardErrors![i]!],
      [
        `bootstrap, ${ROUNDS} rounds (oracle: 10 × its 100)`,
        'bootstrap',
        (r) => r.bootstrap!,
        (i) => (ORACLE.bootstrap100![i]! * ROUNDS) / 100,
      ],
      ['style features (standardise)', 'styleFeatures', (r) => r.styleFeatures!, (i) => ORACLE.styleFeatures![i]!],
      ['style-controlled fit (Newton, from the plain fit)', 'styleFit', (r) => r.styleFit!, (i) => ORACLE.styleFit![i]!],
      ['style fit + sandwich covariance', 'styleWithCovariance', (r) => r.styleWithCovariance!, (i) => ORACLE.styleWithCovariance![i]!],
      ['end to end, cold: parse + aggregate + SCC + fit + SEs', 'endToEnd', (r) => r.endToEnd!, (i) => ORACLE.endToEnd![i]!],
    ];
    const lines = [
      '',
      `| operation | 250k ours | oracle | speed-up | 2.5M ours | oracle | speed-up |`,
      `| --- | --- | --- | --- | --- | --- | --- |`,
    ];
    for (const [label, , ours, oracle] of rows) {
      const cells = results.flatMap((result, index) => {
        const value = ours(result);
        const reference = oracle(index);
        return [format(value), format(reference), `${(reference / value).toFixed(1)}×`];
      });
      lines.push(`| ${label} | ${cells.join(' | ')} |`);
    }
    lines.push(
      `| peak RSS | ${results[0]!.peakRssMb!.toFixed(0)} MB | ${ORACLE.peakRssMb![0]} MB | | ${results[1]!.peakRssMb!.toFixed(0)} MB | ${ORACLE.peakRssMb![1]} MB | |`,
      '',
      `files: ${results.map((r) => `${r.votes} votes, ${r.fileMb!.toFixed(0)} MB, ${r.cells} pairs`).join('; ')}; ` +
        `parse CPU time (all threads): ${results.map((r) => format(r.parseCpu!)).join(' / ')}; ` +
        `Newton iterations: bt_mle ${results[1]!.pointFitIterations}, style ${results[1]!.styleFitIterations}; ` +
        `machine load average during the runs: ${results.map((r) => r.load!.toFixed(1)).join(' / ')} (2 cores: above ~0.5, other work shares them)`,
    );
    const big = results[1]!;
    const goals: [string, boolean][] = [
      [
        `end to end on 2.5M ≥ 3× faster than the oracle's 16.7 s: ${format(big.endToEnd!)} (${(16700 / big.endToEnd!).toFixed(1)}×)`,
        big.endToEnd! * 3 <= 16700,
      ],
      [`${ROUNDS} bootstrap rounds on 2.5M ≤ 5 s: ${format(big.bootstrap!)}`, big.bootstrap! <= 5000],
      [`style-controlled fit on 2.5M ≤ 1 s: ${format(big.styleFit!)}`, big.styleFit! <= 1000],
      [`peak RSS ≤ 600 MB: ${big.peakRssMb!.toFixed(0)} MB`, big.peakRssMb! <= 600],
    ];
    lines.push('', ...goals.map(([text, met]) => `${met ? 'met   ' : 'MISSED'} ${text}`));
    if (endToEnd) lines.push(...formatEndToEnd(endToEnd, ourParts(big), big.votes!, TRIALS));
    lines.push('');
    process.stdout.write(`${lines.join('\n')}\n`);
    process.stdout.write(`${measureLiveOptions().join('\n')}\n`);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Our parse, aggregation and fit on the end-to-end file, from the in-process measure (cold). */
function ourParts(big: Measurement): { parse: number; aggregate: number; fit: number } {
  return { parse: big.parse!, aggregate: big.aggregateCold!, fit: big.sccCold! + big.pointFitCold! + big.standardErrorsCold! };
}

function measureEndToEndAlone(votes: number): string[] {
  const directory = mkdtempSync(join(tmpdir(), 'agora-ranking-bench-'));
  try {
    let endToEnd: EndToEnd | undefined;
    const big = measureSize(directory, votes, (file) => (endToEnd = measureEndToEnd(file, TRIALS)));
    return formatEndToEnd(endToEnd!, ourParts(big), votes, TRIALS);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
