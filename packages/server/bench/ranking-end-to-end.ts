/**
 * End to end part of the ranking bench (issue 35): on one vote file, in the same run and back to
 * back, the numpy oracle's command line (ranking-oracle.py), `agora leaderboard --votes FILE` as
 * users run it once built (the prebuilt CLI, `npm run build:cli`, built first), and the floor: the
 * prebuilt CLI starting and doing nothing and a bare byte scan of the file (read + find newlines,
 * plain Node). The CLI's start through tsx (a fresh clone, no build) is printed beside. Each is a
 * process of its own measured by GNU time (wall, user + system CPU, peak RSS); medians of the trials.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const agora = join(root, 'bin/agora');
const buildCli = join(root, 'scripts/build-cli.mjs');
// run directly, not through bin/agora: another edit of the sources during the bench would send
// bin/agora back to tsx
const prebuilt = join(root, 'packages/server/dist/cli/agora.mjs');
const oracle = fileURLToPath(new URL('./ranking-oracle.py', import.meta.url));
const byteScan = fileURLToPath(new URL('./byte-scan-floor.mjs', import.meta.url));

/** Goal of issue 35 against the oracle. */
const GOAL = { wall: 10, cpu: 5, rssMb: 300 };

interface ProcessCost {
  wall: number;
  cpu: number;
  rssMb: number;
}

interface OracleParts {
  parse: number;
  aggregate: number;
  fit: number;
}

export interface EndToEnd {
  oracle: ProcessCost;
  oracleParts: OracleParts;
  ours: ProcessCost;
  startup: ProcessCost;
  startupTsx: ProcessCost;
  scan: ProcessCost;
}

/** Runs a command under GNU time; its standard output and its cost. */
function timedRun(command: string, args: string[], environment: Record<string, string> = {}): { stdout: string; cost: ProcessCost } {
  const folder = mkdtempSync(join(tmpdir(), 'agora-bench-time-'));
  const report = join(folder, 'time');
  try {
    const stdout = execFileSync('/usr/bin/time', ['-f', '%e %U %S %M', '-o', report, command, ...args], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...environment },
    });
    const [wall, user, system, rssKb] = readFileSync(report, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
    return { stdout, cost: { wall: wall! * 1000, cpu: (user! + system!) * 1000, rssMb: rssKb! / 1024 } };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

function medianCost(costs: ProcessCost[]): ProcessCost {
  return { wall: median(costs.map((c) => c.wall)), cpu: median(costs.map((c) => c.cpu)), rssMb: median(costs.map((c) => c.rssMb)) };
}

export function measureEndToEnd(file: string, trials: number): EndToEnd {
  execFileSync(process.execPath, [buildCli], { stdio: 'inherit' });
  const runs = { oracle: [] as ProcessCost[], ours: [] as ProcessCost[], startup: [] as ProcessCost[], scan: [] as ProcessCost[] };
  const startupTsx: ProcessCost[] = [];
  const parts: OracleParts[] = [];
  for (let trial = 0; trial < trials; trial++) {
    const yardstick = timedRun('python3', [oracle, file], { OPENBLAS_NUM_THREADS: '1' });
    runs.oracle.push(yardstick.cost);
    parts.push(JSON.parse(yardstick.stdout) as OracleParts);
    runs.ours.push(timedRun(process.execPath, [prebuilt, 'leaderboard', '--votes', file, '--format', 'json']).cost);
    runs.startup.push(timedRun(process.execPath, [prebuilt, 'leaderboard', '--help']).cost);
    startupTsx.push(timedRun(agora, ['leaderboard', '--help'], { AGORA_CLI_SOURCES: '1' }).cost);
    runs.scan.push(timedRun(process.execPath, [byteScan, file]).cost);
  }
  return {
    oracle: medianCost(runs.oracle),
    oracleParts: {
      parse: median(parts.map((p) => p.parse)),
      aggregate: median(parts.map((p) => p.aggregate)),
      fit: median(parts.map((p) => p.fit)),
    },
    ours: medianCost(runs.ours),
    startup: medianCost(runs.startup),
    startupTsx: medianCost(startupTsx),
    scan: medianCost(runs.scan),
  };
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/** The end-to-end table, the parts beside the oracle's, the floor and the goal. */
export function formatEndToEnd(result: EndToEnd, ourParts: OracleParts, votes: number, trials: number): string[] {
  const { oracle, ours, startup, startupTsx, scan } = result;
  // the floor of one CLI run: start the CLI, and scan the file on two cores
  const floor = { wall: startup.wall + scan.wall / 2, cpu: startup.cpu + scan.cpu };
  const ratio = (reference: number, value: number): string => `${(reference / value).toFixed(1)}×`;
  const lines = [
    '',
    `end to end on ${votes.toLocaleString('en')} votes, ${trials} trials back to back (medians), each a process of its own, the prebuilt CLI:`,
    '',
    '| | numpy oracle | agora leaderboard | ratio | goal | floor (CLI start + byte scan on 2 cores) | best ratio the floor allows |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    `| wall | ${seconds(oracle.wall)} | ${seconds(ours.wall)} | ${ratio(oracle.wall, ours.wall)} | ≥ ${GOAL.wall}× | ${seconds(floor.wall)} | ${ratio(oracle.wall, floor.wall)} |`,
    `| CPU | ${seconds(oracle.cpu)} | ${seconds(ours.cpu)} | ${ratio(oracle.cpu, ours.cpu)} | ≥ ${GOAL.cpu}× | ${seconds(floor.cpu)} | ${ratio(oracle.cpu, floor.cpu)} |`,
    `| peak RSS | ${oracle.rssMb.toFixed(0)} MB | ${ours.rssMb.toFixed(0)} MB | | ≤ ${GOAL.rssMb} MB | ${startup.rssMb.toFixed(0)} MB (CLI start) | |`,
    '',
    `floor parts: prebuilt CLI start (\`agora leaderboard --help\`) ${seconds(startup.wall)} wall, ${seconds(startup.cpu)} CPU ` +
      `(through tsx, unbuilt: ${seconds(startupTsx.wall)} wall, ${seconds(startupTsx.cpu)} CPU, ${startupTsx.rssMb.toFixed(0)} MB); ` +
      `byte scan (read + find newlines, one thread) ${seconds(scan.wall)} wall, ${seconds(scan.cpu)} CPU, ${scan.rssMb.toFixed(0)} MB`,
    '',
    '| part | oracle | ours |',
    '| --- | --- | --- |',
    `| parse (file → columns) | ${seconds(result.oracleParts.parse)} | ${seconds(ourParts.parse)} |`,
    `| aggregate to cells | ${seconds(result.oracleParts.aggregate)} | ${seconds(ourParts.aggregate)} |`,
    `| fit (SCC + Newton + sandwich SEs) | ${seconds(result.oracleParts.fit)} | ${seconds(ourParts.fit)} |`,
    '',
  ];
  const goals: [string, boolean][] = [
    [`wall ≥ ${GOAL.wall}× the oracle: ${ratio(oracle.wall, ours.wall)}`, oracle.wall >= GOAL.wall * ours.wall],
    [`CPU ≥ ${GOAL.cpu}× the oracle: ${ratio(oracle.cpu, ours.cpu)}`, oracle.cpu >= GOAL.cpu * ours.cpu],
    [`peak RSS ≤ ${GOAL.rssMb} MB: ${ours.rssMb.toFixed(0)} MB`, ours.rssMb <= GOAL.rssMb],
  ];
  lines.push(...goals.map(([text, met]) => `${met ? 'met   ' : 'MISSED'} ${text}`));
  if (oracle.wall < GOAL.wall * floor.wall)
    lines.push(`the wall goal is below this machine's floor (${ratio(oracle.wall, floor.wall)} at best)`);
  if (oracle.cpu < GOAL.cpu * floor.cpu) lines.push(`the CPU goal is below this machine's floor (${ratio(oracle.cpu, floor.cpu)} at best)`);
  return lines;
}
