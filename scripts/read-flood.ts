/**
 * `node --import tsx scripts/read-flood.ts [--store sqlite|postgres] [--seconds 20] [--connections 64]
 * [--path /api/v1/leaderboard] [--limits both|on|off]`: what a flood of reads from one client does to
 * everyone else (issue 31: 82,000 leaderboard reads in 20 s put `/healthz` at p99 425 ms). It starts
 * an arena in this process as the tests do (packages/server/test/test-arena.ts), logging every request
 * as in production, and seeds its leaderboard with votes. Then, from two child processes of their own
 * (so that neither shares the arena's event loop): a prober asks `/healthz` every 20 ms, first alone,
 * then while a flooder sends `--path` as fast as `--connections` keep-alive connections allow for
 * `--seconds`. It runs once with the read limit off (`AGORA_LIMIT_READS_PER_MINUTE_PER_ADDRESS=0`,
 * the arena before the limit) and once with the default limits, and prints `/healthz`'s latency in
 * each and their ratio, the flood's answers, and the arena process's memory (after a full garbage
 * collection) before the flood, at its peak, and 10 s after it ended.
 *
 * PostgreSQL: `export TEST_DATABASE_URL=$(bash scripts/postgres.sh)` first.
 */
import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pino } from 'pino';
import { ArenaClient, type TestArena, startTestArena } from '../packages/server/test/test-arena';
import { DIALECTS } from '../packages/server/test/test-db';
import { runScript } from './script-checks';

const { values: args } = parseArgs({
  options: {
    store: { type: 'string', default: 'sqlite' },
    seconds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '64' },
    path: { type: 'string', default: '/api/v1/leaderboard' },
    limits: { type: 'string', default: 'both' },
  },
});
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const dialect = DIALECTS.find((candidate) => candidate.name === args.store);
if (!dialect) throw new Error(`--store ${args.store}: sqlite, or postgres with TEST_DATABASE_URL set`);
if (!['both', 'on', 'off'].includes(args.limits)) throw new Error('--limits must be both, on or off');

/** The prober: `/healthz` every 20 ms for the given seconds, one connection, each answer's latency in ms. */
const PROBER = `
const http = require('node:http');
const [url, seconds] = [process.argv[1], Number(process.argv[2])];
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const latencies = [];
const get = () => new Promise((resolve) => {
  const request = http.get(url + '/healthz', { agent }, (response) => { response.resume(); response.on('end', resolve); });
  request.on('error', resolve);
});
(async () => {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const started = performance.now();
    await get();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  agent.destroy();
  process.stdout.write(JSON.stringify(latencies));
})();
`;

/** The flooder: `path` as fast as `connections` keep-alive connections go, for the given seconds; answers by status. */
const FLOODER = `
const http = require('node:http');
const [url, seconds, connections] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const statuses = {};
const count = (key) => (statuses[key] = (statuses[key] || 0) + 1);
const get = () => new Promise((resolve) => {
  const request = http.get(url, { agent }, (response) => { count(response.statusCode); response.resume(); response.on('end', resolve); });
  request.on('error', () => { count('error'); resolve(); });
});
const deadline = Date.now() + seconds * 1000;
const loop = async () => { while (Date.now() < deadline) await get(); };
Promise.all(Array.from({ length: connections }, loop)).then(() => {
  agent.destroy();
  process.stdout.write(JSON.stringify(statuses));
});
`;

/** Runs a child script with its arguments; resolves with what it printed, parsed. */
function child<T>(code: string, childArgs: readonly (string | number)[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, ['-e', code, ...childArgs.map(String)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    process_.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    process_.on('error', reject);
    process_.on('close', (status) => (status === 0 ? resolve(JSON.parse(output) as T) : reject(new Error(`child exited ${status}`))));
  });
}

const collectGarbage = (() => {
  setFlagsFromString('--expose_gc');
  return runInNewContext('gc') as () => void;
})();
const liveRssMb = () => {
  collectGarbage();
  return process.memoryUsage().rss / 1024 / 1024;
};

/** Every request is logged at info, as in production: the flood pays for its log lines (into a sink that drops them). */
const discard = new Writable({ write: (_chunk, _encoding, done) => done() });

/** An arena whose leaderboard ranks 6 models over 36 votes of as many visitors. */
async function seededArena(limits: 'on' | 'off'): Promise<TestArena> {
  const environment: Record<string, string> = {
    AGORA_LEADERBOARD_MIN_VOTES: '1',
    AGORA_LEADERBOARD_MIN_INTERVAL_S: '0',
    AGORA_INTEGRITY_MIN_VOTE_S: '0',
    AGORA_MAX_CONNECTIONS_PER_CLIENT: '1000',
    ...(limits === 'off' ? { AGORA_LIMIT_READS_PER_MINUTE_PER_ADDRESS: '0' } : {}),
  };
  const harness = await startTestArena(dialect!, { environment, logger: pino({ level: 'info' }, discard) });
  harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
  for (let index = 0; index < 36; index++) {
    const visitor = new ArenaClient(harness.baseUrl);
    const { id } = (await visitor.request('POST', '/api/v1/duels', { prompt: `Question ${index}` })).json as { id: string };
    await visitor.stream(id);
    await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: index % 3 === 0 ? 'b' : 'a' });
  }
  harness.arena.leaderboardRefresh.trigger();
  await harness.arena.leaderboardRefresh.idle();
  return harness;
}

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

interface RunResult {
  limits: 'on' | 'off';
  idle: number[];
  flooded: number[];
  statuses: Record<string, number>;
  rssMb: { before: number; peak: number; after: number };
}

async function run(limits: 'on' | 'off'): Promise<RunResult> {
  const harness = await seededArena(limits);
  try {
    const board = (await harness.client.request('GET', '/api/v1/leaderboard')).json as { models: unknown[] };
    const rows = board.models.length;
    process.stdout.write(`limits ${limits}: arena ${harness.baseUrl}, leaderboard of ${rows} models\n`);
    const idle = await child<number[]>(PROBER, [harness.baseUrl, 5]);
    const before = liveRssMb();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss / 1024 / 1024)), 250);
    const [statuses, flooded] = await Promise.all([
      child<Record<string, number>>(FLOODER, [`${harness.baseUrl}${args.path}`, seconds, connections]),
      child<number[]>(PROBER, [harness.baseUrl, seconds]),
    ]);
    clearInterval(sampler);
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    return { limits, idle, flooded, statuses, rssMb: { before, peak, after: liveRssMb() } };
  } finally {
    await harness.close();
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
function report(result: RunResult): string {
  const total = Object.values(result.statuses).reduce((sum, count) => sum + count, 0);
  return [
    `limits ${result.limits}: ${total} requests of ${args.path} in ${seconds} s over ${connections} connections (${JSON.stringify(result.statuses)})`,
    `  /healthz alone:       p50 ${ms(quantile(result.idle, 0.5))}, p99 ${ms(quantile(result.idle, 0.99))} (${result.idle.length} probes)`,
    `  /healthz under flood: p50 ${ms(quantile(result.flooded, 0.5))}, p99 ${ms(quantile(result.flooded, 0.99))}, max ${ms(quantile(result.flooded, 1))} (${result.flooded.length} probes)`,
    `  arena RSS: ${result.rssMb.before.toFixed(0)} MB before, ${result.rssMb.peak.toFixed(0)} MB at peak, ${result.rssMb.after.toFixed(0)} MB 10 s after`,
  ].join('\n');
}

async function main(): Promise<number> {
  const results: RunResult[] = [];
  for (const limits of args.limits === 'both' ? (['off', 'on'] as const) : [args.limits as 'on' | 'off']) {
    results.push(await run(limits));
    process.stdout.write(`${report(results.at(-1)!)}\n`);
  }
  const [off, on] = results;
  if (off && on) {
    const ratio = (q: number) => (quantile(off.flooded, q) / quantile(on.flooded, q)).toFixed(1);
    process.stdout.write(`/healthz under flood, limit off ÷ limit on: p50 ×${ratio(0.5)}, p99 ×${ratio(0.99)}\n`);
  }
  return 0;
}

runScript('read-flood', main);
