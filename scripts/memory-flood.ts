/**
 * `node --import tsx scripts/memory-flood.ts [--seconds 300] [--settle-s 180] [--connections 64]
 * [--limits off|on] [--spread]`: does the arena give its memory back after a flood (issue 31: RSS
 * went from 216 to 564 MB over 300,000 flood requests)? It starts `agora serve` as a process of its
 * own (SQLite in a temporary folder, every request logged as in production), warms it up, then floods
 * it from another process with the public routes a visitor reads or pokes (leaderboard and its
 * history, stats, models, a page, the challenge, an unknown duel's transcript and reactions) for
 * `--seconds`, sampling the server's resident memory (Linux: /proc/<pid>/status). `--limits off`
 * (the default, the heaviest case) turns the read, challenge and reaction limits off; `--spread`
 * sends each request from another address through a trusted proxy (so the limits keep one counter
 * per address). It exits 1 unless the memory `--settle-s` after the flood is within 20 % of its
 * start: 180 s by default, since a rate-limit counter outlives its one-minute window by up to one
 * more (adapters/window-counter.ts drops a generation a window old). Measured (300 s flood, 64
 * connections, 2026-12-03): limits off, 808 k requests, 217 MB at start, 248 at peak, 189 MB 60 s
 * after; limits on, each request from another address, 853 k requests, 223 MB at start, 370 at
 * peak, 323 MB 60 s after, 149 MB 120 s after.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { testCatalogueYaml } from '../packages/server/test/test-arena';
import { printChecks, runScript } from './script-checks';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '300' },
    'settle-s': { type: 'string', default: '180' },
    connections: { type: 'string', default: '64' },
    limits: { type: 'string', default: 'off' },
    spread: { type: 'boolean', default: false },
  },
});
const seconds = Number(args.seconds);
const settleS = Number(args['settle-s']);
if (args.limits !== 'on' && args.limits !== 'off') throw new Error('--limits must be on or off');

/** The flooder: the routes in turn on `connections` keep-alive connections until the deadline; answers by status. */
const FLOODER = `
const http = require('node:http');
const [base, seconds, connections, spread] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3]), process.argv[4] === 'spread'];
const routes = [
  ['GET', '/api/v1/leaderboard'], ['GET', '/api/v1/leaderboard?style=controlled'], ['GET', '/api/v1/stats'], ['GET', '/api/v1/models'],
  ['GET', '/api/v1/challenge'], ['GET', '/api/v1/duels/no-such-duel'], ['POST', '/api/v1/duels/no-such-duel/reactions'],
  ['GET', '/api/v1/leaderboard/history?model=kestrix-8b'], ['GET', '/api/v1/pages/methodology?locale=fr'],
];
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const statuses = {};
let sent = 0;
const one = () => new Promise((resolve) => {
  const [method, path] = routes[sent % routes.length];
  const headers = { 'content-type': 'application/json' };
  if (spread) headers['x-forwarded-for'] = '10.' + ((sent >> 16) & 255) + '.' + ((sent >> 8) & 255) + '.' + (sent & 255);
  sent += 1;
  const request = http.request(base + path, { method, agent, headers }, (response) => {
    statuses[response.statusCode] = (statuses[response.statusCode] || 0) + 1;
    response.resume();
    response.on('end', resolve);
  });
  request.on('error', () => { statuses.error = (statuses.error || 0) + 1; resolve(); });
  request.end(method === 'POST' ? '{"side":"a","turn":1,"value":"like"}' : undefined);
});
const deadline = Date.now() + seconds * 1000;
const loop = async () => { while (Date.now() < deadline) await one(); };
Promise.all(Array.from({ length: connections }, loop)).then(() => { agent.destroy(); process.stdout.write(JSON.stringify(statuses)); });
`;

function flood(baseUrl: string, floodSeconds: number, connections: number): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-e', FLOODER, baseUrl, String(floodSeconds), String(connections), args.spread ? 'spread' : ''],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) =>
      status === 0 ? resolve(JSON.parse(output) as Record<string, number>) : reject(new Error(`flooder exited ${status}`)),
    );
  });
}

/** `agora serve` on a free port; resolves once it logs its address. Its log (a line a request) is read and dropped. */
function serve(folder: string): Promise<{ server: ChildProcess; baseUrl: string }> {
  const modelsPath = join(folder, 'models.yaml');
  writeFileSync(modelsPath, testCatalogueYaml('http://127.0.0.1:9'));
  const limitsOff = [
    'READS_PER_MINUTE_PER_ADDRESS',
    'CHALLENGES_PER_MINUTE_PER_ADDRESS',
    'REACTIONS_PER_MINUTE',
    'REACTIONS_PER_MINUTE_PER_ADDRESS',
  ];
  const environment = {
    ...process.env,
    PORT: '0',
    DATABASE_URL: `sqlite:${join(folder, 'agora.db')}`,
    AGORA_MODELS: modelsPath,
    AGORA_LOG_LEVEL: 'info',
    AGORA_POSTPROCESS: 'false',
    AGORA_MAX_CONNECTIONS_PER_CLIENT: '1000',
    ...(args.spread ? { AGORA_TRUSTED_PROXIES: '127.0.0.1' } : {}),
    ...(args.limits === 'off' ? Object.fromEntries(limitsOff.map((name) => [`AGORA_LIMIT_${name}`, '0'])) : {}),
  };
  const cli = new URL('../packages/server/src/cli/main.ts', import.meta.url).pathname;
  const server = spawn(process.execPath, ['--import', 'tsx', cli, 'serve'], { env: environment, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const url = /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1];
      if (!url) return;
      server.stdout.off('data', onData);
      server.stdout.resume();
      resolve({ server, baseUrl: url.replace('0.0.0.0', '127.0.0.1') });
    };
    server.stdout.on('data', onData);
    server.once('exit', (code) => reject(new Error(`agora serve exited with ${code} before it was ready:\n${output}`)));
  });
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<number> {
  const folder = mkdtempSync(join(tmpdir(), 'agora-memory-flood-'));
  const { server, baseUrl } = await serve(folder);
  try {
    const pid = server.pid!;
    await flood(baseUrl, 10, 8);
    await wait(5000);
    const start = rssMb(pid);
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 1000);
    const statuses = await flood(baseUrl, seconds, Number(args.connections));
    clearInterval(sampler);
    const atEnd = rssMb(pid);
    const after: string[] = [];
    for (let waited = 30; waited < settleS; waited += 30) {
      await wait(30_000);
      after.push(`${rssMb(pid).toFixed(0)} MB ${waited} s after`);
    }
    await wait((settleS % 30 || 30) * 1000);
    const settled = rssMb(pid);
    const requests = Object.values(statuses).reduce((sum, count) => sum + count, 0);
    const lines = [
      `memory-flood: ${requests} requests in ${seconds} s over ${args.connections} connections, limits ${args.limits}${args.spread ? ', each from another address' : ''} (${JSON.stringify(statuses)})`,
      `  server RSS: ${start.toFixed(0)} MB at start, ${peak.toFixed(0)} MB at peak, ${atEnd.toFixed(0)} MB at the flood's end, ${[...after, ''].join(', ')}${settled.toFixed(0)} MB ${settleS} s later`,
    ];
    return printChecks('memory-flood', lines, [[`RSS ${settleS} s after the flood within 20 % of its start`, settled <= start * 1.2]]);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(folder, { recursive: true, force: true });
  }
}

runScript('memory-flood', main);
