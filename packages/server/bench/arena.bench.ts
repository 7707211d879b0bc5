import { randomBytes } from 'node:crypto';
/**
 * Arena benchmark (issue 2): against the fake upstream streaming at a realistic pace, in processes
 * of their own (arena server, fake upstream, and this load generator), all on loopback:
 *  1. the time to first token the arena adds over calling the upstream directly (p50, p99) at 200 concurrent duels:
 *     per call, the first token's arrival at the client minus the upstream's own time to first token
 *     (timestamps from the fake upstream for that very call), through the arena and directly, so that
 *     the upstream's own lateness on a shared machine is counted in neither;
 *  2. how many concurrent streaming duels the arena sustains, and its peak RSS;
 *  3. acknowledged votes per second over HTTP, on SQLite and on PostgreSQL.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = join(root, 'node_modules/tsx/dist/loader.mjs');
const pace = { firstTokenMs: 200, tokensPerSecond: 30, answerTokens: 200 };
/**
 * `AGORA_BENCH_ARENA=ttft,duels,votes` picks the measurements (those three by default); `ttft-floor`
 * measures the same time to first token through the least a Node.js relay can do (bare-relay.process.ts).
 */
/** The bench's arena reads its own /metrics, which sits behind a token. */
const BENCH_METRICS_TOKEN = 'bench-metrics-token-0123456789';
const measurements = new Set((process.env.AGORA_BENCH_ARENA ?? 'ttft,duels,votes').split(','));
/** Concurrent duels of the time-to-first-token measurement (`AGORA_BENCH_TTFT_DUELS`, 200 by default as in issue 2). */
const ttftDuels = Number(process.env.AGORA_BENCH_TTFT_DUELS ?? 200);
/**
 * `AGORA_BENCH_PIN=1`: the arena gets core 0 to itself and the fake upstream and this load generator
 * share core 1 (taskset), as when the vendors and the visitors are other machines. Without it the
 * three processes share both cores, and the arena's added time includes waiting for a core.
 */
const pinned = process.env.AGORA_BENCH_PIN === '1';
const onCore = (core: number): string[] => (pinned ? ['taskset', '-c', String(core)] : []);
/**
 * `AGORA_BENCH_NICE=1`: the fake upstream and this load generator run at a lower scheduling priority
 * (nice 10) than the arena, so that the visitors and vendors they play, which are other machines in
 * production, do not preempt the arena each time it writes to them on loopback.
 */
const niced = process.env.AGORA_BENCH_NICE === '1';
/** Extra Node options for the arena process only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it. */
const arenaNodeOptions = (process.env.AGORA_BENCH_ARENA_NODE_OPTIONS ?? '').split(' ').filter(Boolean);

interface Child {
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts a child process and waits for `readyPattern` in its output. With `logFile`, its stdout goes
 * to that file, as a deployed arena's logs go to a file or a journal: a pipe drained by this busy
 * load generator would fill up and stall the child's synchronous log writes, timing the pipe.
 */
function startChild(
  script: string,
  environment: Record<string, string>,
  readyPattern: RegExp,
  options: { args?: string[]; logFile?: string; nodeOptions?: string[]; core: number },
): Promise<{ child: Child; match: RegExpMatchArray }> {
  const { args = [], logFile, nodeOptions = [], core } = options;
  const stdout = logFile === undefined ? 'pipe' : openSync(logFile, 'w');
  const [command, ...prefix] = [...onCore(core), process.execPath];
  const child = spawn(command, [...prefix, ...nodeOptions, '--import', tsx, script, ...args], {
    env: { ...process.env, ...environment },
    stdio: ['ignore', stdout, 'inherit', 'ipc'],
  });
  if (typeof stdout === 'number') closeSync(stdout);
  return new Promise((resolve, reject) => {
    const ready = (output: string) => {
      const match = output.match(readyPattern);
      if (match) resolve({ child: { process: child, stop: () => stopChild(child) }, match });
      return match !== null;
    };
    if (logFile !== undefined) {
      const poll = setInterval(() => {
        if (ready(readFileSync(logFile, 'utf8'))) clearInterval(poll);
      }, 50);
      child.once('exit', (code) => {
        clearInterval(poll);
        reject(new Error(`${script} exited with ${code} before it was ready:\n${readFileSync(logFile, 'utf8')}`));
      });
      return;
    }
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (ready(output)) {
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready:\n${output}`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

function catalogue(baseUrl: string, prefix: 'paced' | 'instant'): string {
  return `models:\n${Array.from(
    { length: 6 },
    (_, index) => `  - id: ${prefix}-${index}
    name: Bench ${prefix} ${index}
    organisation: Bench Lab ${index}
    license: MIT
    open_weights: true
    arch: dense
    params_b: ${[8, 24, 32, 70, 120, 405][index]}
    provider: { type: openai-compatible, base_url: '${baseUrl}', model: '${prefix}-${index}' }
    options: { first_token_timeout_ms: 30000, total_timeout_ms: 120000 }`,
  ).join('\n')}\n`;
}

async function startArena(databaseUrl: string, modelsPath: string): Promise<{ child: Child; baseUrl: string }> {
  const { child, match } = await startChild(
    join(root, 'packages/server/src/cli/main.ts'),
    {
      PORT: '0',
      DATABASE_URL: databaseUrl,
      AGORA_MODELS: modelsPath,
      AGORA_LOG_LEVEL: 'info',
      AGORA_REPLAY_TTL_S: '5',
      AGORA_METRICS_TOKEN: BENCH_METRICS_TOKEN,
      // The bench is one address sending thousands of duels and votes over hundreds of connections: it measures the arena, not its limits.
      AGORA_MAX_CONNECTIONS_PER_CLIENT: '100000',
      ...Object.fromEntries(
        [
          'AGORA_LIMIT_PROMPTS_PER_HOUR',
          'AGORA_LIMIT_PROMPTS_PER_HOUR_PER_ADDRESS',
          'AGORA_LIMIT_VOTES_PER_MINUTE',
          'AGORA_LIMIT_VOTES_PER_MINUTE_PER_ADDRESS',
          'AGORA_LIMIT_READS_PER_MINUTE_PER_ADDRESS',
        ].map((name) => [name, '0']),
      ),
    },
    /"url":"(http:\/\/[^"]+)"/,
    { args: ['serve'], logFile: `${modelsPath}.arena.log`, nodeOptions: arenaNodeOptions, core: 0 },
  );
  return { child, baseUrl: match[1]! };
}

// The load generator shares the two cores with the arena: keep its own cost low (Node's HTTP client, not fetch).
const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
function postJson(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const call = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    call.once('error', reject);
    call.end(body);
  });
}

const quantile = (values: number[], q: number) => {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const format = (ms: number) => `${ms.toFixed(2)} ms`;

/** Resident set size of a process, in MB, from /proc. */
function rssMb(pid: number): number {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds a process has used so far in user space and in the kernel, from /proc (clock ticks of 10 ms). */
function cpuTimes(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}
const cpuSeconds = (pid: number): number => {
  const { user, system } = cpuTimes(pid);
  return user + system;
};

/** Milliseconds since the epoch, sub-millisecond: comparable with the fake upstream's timestamps (same machine). */
const wallClock = () => performance.timeOrigin + performance.now();

/** One call as the client saw it: when it started and when its first token arrived (wall clock, ms). */
interface ClientCall {
  tag: string;
  startedAt: number;
  firstTokenAt: number;
}

/**
 * One direct streaming call to the upstream, with the same client and the same kind of frame search
 * as the calls through the arena, so that the two differ only by the arena.
 */
function directCall(upstreamUrl: string, model: string, tag: string): Promise<ClientCall> {
  const body = JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: `Bonjour #${tag}` }] });
  const startedAt = wallClock();
  let firstTokenAt = Number.NaN;
  return new Promise((resolve, reject) => {
    const call = request(
      `${upstreamUrl}/chat/completions`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (response) => {
        let tail = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          const text = tail + chunk;
          if (Number.isNaN(firstTokenAt) && /"content":"[^"]/.test(text)) firstTokenAt = wallClock();
          tail = text.slice(-64);
        });
        response.on('end', () => resolve({ tag, startedAt, firstTokenAt }));
        response.on('error', reject);
      },
    );
    call.once('error', reject);
    call.end(body);
  });
}

interface DuelTiming {
  firstToken: { a: number; b: number };
  complete: boolean;
  /** Both sides as client calls (wall clock), for the comparison with the upstream's own timestamps. */
  calls: ClientCall[];
}

/**
 * One duel through the arena's public API: create, then follow the stream to its end. The load
 * generator only looks for the frames it times (plain string search, Node's HTTP client): the
 * parsing of every frame with the contract schema is what the tests check, not what is measured here.
 */
async function arenaDuel(arenaUrl: string, body: { prompt: string } & Record<string, unknown>, tag?: string): Promise<DuelTiming> {
  const startedAt = wallClock();
  const started = performance.now();
  // A visitor of its own, as a browser keeps its cookie: the duel and its stream are only that visitor's.
  const visitor = { cookie: `agora_visitor=${randomBytes(16).toString('base64url')}` };
  const created = await postJson(
    `${arenaUrl}/api/v1/duels`,
    JSON.stringify(tag === undefined ? body : { ...body, prompt: `${body.prompt} #${tag}` }),
    visitor,
  );
  const { id } = JSON.parse(created.text) as { id: string };
  const firstToken = { a: Number.NaN, b: Number.NaN };
  const firstTokenAt = { a: Number.NaN, b: Number.NaN };
  let complete = false;
  await new Promise<void>((resolve, reject) => {
    const call = request(`${arenaUrl}/api/v1/duels/${id}/stream`, { agent, headers: visitor }, (response) => {
      let tail = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const text = tail + chunk;
        for (const side of ['a', 'b'] as const) {
          if (Number.isNaN(firstToken[side]) && text.includes(`event: text-delta\ndata: {"side":"${side}"`)) {
            firstToken[side] = performance.now() - started;
            firstTokenAt[side] = wallClock();
          }
        }
        if (text.includes('"status":"complete"')) complete = true;
        tail = text.slice(-64);
      });
      response.on('end', resolve);
      response.on('error', reject);
    });
    call.once('error', reject);
    call.end();
  });
  const calls = (['a', 'b'] as const).map((side) => ({ tag: tag ?? '', startedAt, firstTokenAt: firstTokenAt[side] }));
  return { firstToken, complete, calls };
}

/** Milliseconds a call spent outside the upstream before its first token, whole and by leg. */
interface CallOverhead {
  total: number;
  request: number;
  relay: number;
}

interface UpstreamTiming {
  receivedAt: number;
  firstChunkAt: number | null;
}

/** What the fake upstream recorded of the tagged calls since the last time it was asked. */
function upstreamTimings(fake: Child): Promise<Map<string, UpstreamTiming[]>> {
  return new Promise((resolve) => {
    fake.process.once('message', (message: { timings: Record<string, UpstreamTiming[]> }) =>
      resolve(new Map(Object.entries(message.timings))),
    );
    fake.process.send({ timings: true });
  });
}

/**
 * Per call, the time to first token the client saw minus the upstream's own time to first token
 * (from receiving the request to writing its first content chunk): what lies between the client and
 * the upstream, measured on the same call at the same moment, so that the upstream's own delays (its
 * timers firing late on a busy machine) count on neither side. The two calls of a duel are matched to
 * the two upstream requests in order of first token (the side-to-model mapping is blind).
 * The overhead is also split in its two legs: from the client's start to the upstream receiving the
 * request (through the arena: the duel's creation), and from the upstream writing its first chunk to
 * the client reading it (the relay of the first token).
 */
function overheadPerCall(calls: ClientCall[], upstream: Map<string, UpstreamTiming[]>): CallOverhead[] {
  const byTag = new Map<string, ClientCall[]>();
  for (const call of calls) byTag.set(call.tag, [...(byTag.get(call.tag) ?? []), call]);
  return [...byTag].flatMap(([tag, clientCalls]) => {
    const served = (upstream.get(tag) ?? [])
      .filter((timing) => timing.firstChunkAt !== null)
      .sort((x, y) => x.firstChunkAt! - y.firstChunkAt!);
    const seen = [...clientCalls].sort((x, y) => x.firstTokenAt - y.firstTokenAt);
    if (served.length !== seen.length) return seen.map(() => ({ total: Number.NaN, request: Number.NaN, relay: Number.NaN }));
    return seen.map((call, index) => {
      const { receivedAt, firstChunkAt } = served[index]!;
      const [request, relay] = [receivedAt - call.startedAt, call.firstTokenAt - firstChunkAt!];
      return { total: request + relay, request, relay };
    });
  });
}

/**
 * Starts `launch` at a steady rate for `seconds`, and keeps the results of the launches made after
 * the first `warmupSeconds` (once the number of duels in flight has reached its steady level).
 */
async function steadyArrivals<T>(
  ratePerSecond: number,
  seconds: number,
  warmupSeconds: number,
  launch: (index: number) => Promise<T[]>,
): Promise<T[]> {
  const results: Promise<T[]>[] = [];
  const started = performance.now();
  for (let index = 0; index < ratePerSecond * seconds; index += 1) {
    const due = started + (index * 1000) / ratePerSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const run = launch(index);
    results.push(index >= ratePerSecond * warmupSeconds ? run : run.then(() => []));
  }
  return (await Promise.all(results)).flat();
}

async function addedFirstToken(
  arena: { child: Child; baseUrl: string },
  upstreamUrl: string,
  fake: Child,
  concurrency: number,
): Promise<FirstTokenFigures> {
  const arenaUrl = arena.baseUrl;
  const arenaPid = arena.child.process.pid!;
  // Duels arrive at the rate that keeps `concurrency` of them streaming (Little's law), as on a busy
  // arena, rather than all in the same millisecond; the baseline makes the same upstream calls at the same rate.
  const duelSeconds = (pace.firstTokenMs + (pace.answerTokens / pace.tokensPerSecond) * 1000) / 1000;
  const rate = concurrency / duelSeconds;
  const [seconds, warmup] = [3 * duelSeconds, duelSeconds];
  await Promise.all(
    Array.from({ length: 20 }, (_, index) =>
      arenaDuel(arenaUrl, { prompt: 'échauffement', mode: 'custom', models: [`paced-${index % 6}`, `paced-${(index + 1) % 6}`] }),
    ),
  );
  const direct = await steadyArrivals(rate, seconds, warmup, (index) =>
    Promise.all([
      directCall(upstreamUrl, `paced-${index % 6}`, `d${index}a`),
      directCall(upstreamUrl, `paced-${(index + 1) % 6}`, `d${index}b`),
    ]),
  );
  const directOverhead = overheadPerCall(direct, await upstreamTimings(fake));
  const cpuBefore = cpuTimes(arenaPid);
  let duelsRun = 0;
  // Direct calls made while the arena streams its duels (one pair for every `sampleEvery` duels): the
  // load generator and the fake upstream are as busy as for the calls through the arena, so their own
  // delays (reading, writing, waiting for a core) count the same on both sides of the difference.
  const sampleEvery = 4;
  const concurrentDirect: Promise<ClientCall[]>[] = [];
  const viaArena = await steadyArrivals(rate, seconds, warmup, async (index) => {
    duelsRun += 1;
    if (index % sampleEvery === 0 && index >= rate * warmup)
      concurrentDirect.push(
        Promise.all([
          directCall(upstreamUrl, `paced-${index % 6}`, `c${index}a`),
          directCall(upstreamUrl, `paced-${(index + 1) % 6}`, `c${index}b`),
        ]),
      );
    const timing = await arenaDuel(
      arenaUrl,
      { prompt: 'Bonjour', mode: 'custom', models: [`paced-${index % 6}`, `paced-${(index + 1) % 6}`] },
      `v${index}`,
    );
    return timing.calls;
  });
  const directDuringArena = (await Promise.all(concurrentDirect)).flat();
  // Every duel streams two answers of `answerTokens` tokens, one upstream chunk and one client frame each.
  const cpuAfter = cpuTimes(arenaPid);
  const tokens = duelsRun * 2 * pace.answerTokens;
  const [userPerToken, systemPerToken] = [
    ((cpuAfter.user - cpuBefore.user) * 1e6) / tokens,
    ((cpuAfter.system - cpuBefore.system) * 1e6) / tokens,
  ];
  const upstreamDuringArena = await upstreamTimings(fake);
  const arenaOverhead = overheadPerCall(viaArena, upstreamDuringArena);
  const concurrentDirectOverhead = overheadPerCall(directDuringArena, upstreamDuringArena);
  const firstTokens = (calls: ClientCall[]) => calls.map((call) => call.firstTokenAt - call.startedAt);
  const [directP50, directP99, arenaP50, arenaP99] = [
    quantile(firstTokens(direct), 0.5),
    quantile(firstTokens(direct), 0.99),
    quantile(firstTokens(viaArena), 0.5),
    quantile(firstTokens(viaArena), 0.99),
  ];
  const leg = (overheads: CallOverhead[], key: keyof CallOverhead) => overheads.map((overhead) => overhead[key]);
  const [directOverheadP50, directOverheadP99, arenaOverheadP50, arenaOverheadP99] = [
    quantile(leg(directOverhead, 'total'), 0.5),
    quantile(leg(directOverhead, 'total'), 0.99),
    quantile(leg(arenaOverhead, 'total'), 0.5),
    quantile(leg(arenaOverhead, 'total'), 0.99),
  ];
  const unmatched = [...leg(directOverhead, 'total'), ...leg(arenaOverhead, 'total'), ...leg(concurrentDirectOverhead, 'total')].filter(
    Number.isNaN,
  ).length;
  console.log(
    `time to first token at ${concurrency} concurrent duels (${rate.toFixed(1)} new duels/s; upstream first-token delay ${pace.firstTokenMs} ms, ${pace.tokensPerSecond} tokens/s):`,
  );
  console.log(
    `  direct to upstream   p50 ${format(directP50)}  p99 ${format(directP99)}  (n=${direct.length}, the same two calls per duel at the same rate, same client)`,
  );
  console.log(
    `  through the arena    p50 ${format(arenaP50)}  p99 ${format(arenaP99)}  (n=${viaArena.length}, from POST /duels to the first text-delta of each side)`,
  );
  console.log(
    `  difference           p50 ${format(arenaP50 - directP50)}  p99 ${format(arenaP99 - directP99)}   (includes the upstream's own delays, which differ between the two runs on a shared machine)`,
  );
  console.log("  per call, time to first token minus the upstream's own (request received → first chunk written), same call:");
  console.log(`    direct             p50 ${format(directOverheadP50)}  p99 ${format(directOverheadP99)}`);
  console.log(
    `    through the arena  p50 ${format(arenaOverheadP50)}  p99 ${format(arenaOverheadP99)}${unmatched > 0 ? `  (${unmatched} calls without upstream timings)` : ''}`,
  );
  const [concurrentP50, concurrentP99] = [
    quantile(leg(concurrentDirectOverhead, 'total'), 0.5),
    quantile(leg(concurrentDirectOverhead, 'total'), 0.99),
  ];
  console.log(
    `    direct, at the same time as the arena's duels  p50 ${format(concurrentP50)}  p99 ${format(concurrentP99)}  (n=${directDuringArena.length}, one pair every ${sampleEvery} duels: the load generator's and the upstream's own delays under this load)`,
  );
  console.log(
    `  added by the arena   p50 ${format(arenaOverheadP50 - directOverheadP50)}  p99 ${format(arenaOverheadP99 - directOverheadP99)}   goals: p50 ≤ 2 ms, p99 ≤ 20 ms`,
  );
  // A difference of p99s between samples of 800 and 200 calls says little; the p50s compare well.
  console.log(`  added by the arena against the direct calls made at the same time   p50 ${format(arenaOverheadP50 - concurrentP50)}`);
  for (const [key, label] of [
    ['request', 'client start → upstream receives the request'],
    ['relay', 'upstream writes the first chunk → client reads it'],
  ] as const) {
    const [direct50, direct99, arena50, arena99] = [
      quantile(leg(directOverhead, key), 0.5),
      quantile(leg(directOverhead, key), 0.99),
      quantile(leg(arenaOverhead, key), 0.5),
      quantile(leg(arenaOverhead, key), 0.99),
    ];
    const [same50, same99] = [quantile(leg(concurrentDirectOverhead, key), 0.5), quantile(leg(concurrentDirectOverhead, key), 0.99)];
    console.log(
      `    ${label}: direct p50 ${format(direct50)} p99 ${format(direct99)} (at the same time p50 ${format(same50)} p99 ${format(same99)}), through the arena p50 ${format(arena50)} p99 ${format(arena99)}`,
    );
  }
  console.log(
    `  arena CPU per streamed token ${(userPerToken + systemPerToken).toFixed(0)} µs (user ${userPerToken.toFixed(0)}, system ${systemPerToken.toFixed(0)}; whole duels: creation, both streams, storage; ${duelsRun} duels)`,
  );
  return { cpuPerToken: userPerToken + systemPerToken, addedP50: arenaOverheadP50 - directOverheadP50 };
}

/** What one time-to-first-token measurement gives the closing comparison with the bare relay. */
interface FirstTokenFigures {
  /** User + system µs per streamed token. */
  cpuPerToken: number;
  /** Added time to first token, p50, ms (per call, against the direct calls before the load). */
  addedP50: number;
}

/**
 * The arena against the bare relay measured in the same run (issue 35, item 4), one line each, so
 * that medians of several runs can be taken from the bench's output.
 */
function printFloorComparison(arena: FirstTokenFigures, relay: FirstTokenFigures): void {
  const ratio = (x: number, y: number) => `${(x / y).toFixed(2)}×`;
  console.log(`the arena against the bare relay, same run (${ttftDuels} concurrent duels):`);
  console.log('  | figure | arena | bare relay | ratio | goal |');
  console.log('  | --- | --- | --- | --- | --- |');
  console.log(
    `  | CPU per streamed token | ${arena.cpuPerToken.toFixed(1)} µs | ${relay.cpuPerToken.toFixed(1)} µs | ${ratio(arena.cpuPerToken, relay.cpuPerToken)} | ≤ 1.20× |`,
  );
  console.log(
    `  | added time to first token, p50 | ${format(arena.addedP50)} | ${format(relay.addedP50)} | ${ratio(arena.addedP50, relay.addedP50)} | ≤ 1.5× |`,
  );
}

async function concurrentDuels(arena: { child: Child; baseUrl: string }, concurrency: number): Promise<void> {
  const pid = arena.child.process.pid!;
  const idle = rssMb(pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
  const started = performance.now();
  const outcomes = await Promise.allSettled(
    Array.from({ length: concurrency }, (_, index) =>
      arenaDuel(arena.baseUrl, { prompt: 'Bonjour', mode: 'custom', models: [`paced-${index % 6}`, `paced-${(index + 3) % 6}`] }),
    ),
  );
  clearInterval(sampler);
  const timings = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const errors = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [String(outcome.reason)] : []));
  if (errors.length > 0) console.log(`  ${errors.length} duels failed on the client side, e.g. ${errors[0]}`);
  const seconds = (performance.now() - started) / 1000;
  const completed = timings.filter((timing) => timing.complete).length;
  const firstTokens = timings.flatMap((timing) => [timing.firstToken.a, timing.firstToken.b]);
  const ideal = pace.firstTokenMs + (pace.answerTokens / pace.tokensPerSecond) * 1000;
  console.log(
    `${concurrency} concurrent streaming duels (${2 * concurrency} upstream streams, ${pace.answerTokens} tokens each at ${pace.tokensPerSecond}/s):`,
  );
  console.log(`  completed ${completed}/${concurrency} in ${seconds.toFixed(1)} s (an unloaded duel takes ${(ideal / 1000).toFixed(1)} s)`);
  console.log(`  first token p50 ${format(quantile(firstTokens, 0.5))}  p99 ${format(quantile(firstTokens, 0.99))}`);
  console.log(`  arena RSS idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB   goal: ≥ 500 duels under 400 MB`);
}

async function votesPerSecond(label: string, databaseUrl: string, upstreamUrl: string, folder: string): Promise<void> {
  const modelsPath = join(folder, `instant-${label}.yaml`);
  writeFileSync(modelsPath, catalogue(upstreamUrl, 'instant'));
  const arena = await startArena(databaseUrl, modelsPath);
  try {
    // The first `warmup` votes are not counted: they load what the first votes of a server load once
    // (post-processing's language models, the JIT-compiled vote path), as on an arena that has been running.
    const [total, warmup, clients] = [4000, 200, 32];
    // Each client is a browser that keeps its visitor cookie (22 base64url characters); a duel is its creator's.
    const visitor = (client: number) => ({ cookie: `agora_visitor=bench-visitor-${String(client).padStart(8, '0')}` });
    const ids: { id: string; client: number }[] = [];
    for (let batch = 0; batch < (total + warmup) / 100; batch += 1) {
      const created = await Promise.all(
        Array.from({ length: 100 }, (_, index) => {
          const client = (batch * 100 + index) % clients;
          return postJson(`${arena.baseUrl}/api/v1/duels`, '{"prompt":"Bonjour"}', visitor(client)).then((response) => ({
            id: (JSON.parse(response.text) as { id: string }).id,
            client,
          }));
        }),
      );
      ids.push(...created);
    }
    // Let every turn end and be stored before voting.
    await Promise.all(
      ids
        .slice(-100)
        .map(({ id, client }) =>
          fetch(`${arena.baseUrl}/api/v1/duels/${id}/stream`, { headers: visitor(client) }).then((response) => response.text()),
        ),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const choices = ['a', 'b', 'tie', 'both_bad'];
    const warmupIds = ids.splice(0, warmup);
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        for (let index = worker; index < warmupIds.length; index += 8)
          await postJson(
            `${arena.baseUrl}/api/v1/duels/${warmupIds[index]!.id}/vote`,
            JSON.stringify({ choice: 'a' }),
            visitor(warmupIds[index]!.client),
          );
      }),
    );
    // Post-processing of the warm-up votes runs within a second of them: let it finish.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    let next = 0;
    let acknowledged = 0;
    const cpuBefore = cpuSeconds(arena.child.process.pid!);
    const started = performance.now();
    // Each client votes on the duels it created, one at a time.
    const worker = async (_: unknown, client: number) => {
      for (const { id } of ids.filter((duel) => duel.client === client)) {
        const body = JSON.stringify({ choice: choices[next++ % 4], tags: { a: ['useful'] } });
        const response = await postJson(`${arena.baseUrl}/api/v1/duels/${id}/vote`, body, visitor(client));
        if (response.status === 200) acknowledged += 1;
      }
    };
    await Promise.all(Array.from({ length: clients }, worker));
    const seconds = (performance.now() - started) / 1000;
    // Post-processing of the voted conversations runs in the same process, behind the votes: wait
    // until it has caught up, and count its CPU with the votes'.
    const postprocessed = async () => {
      const metrics = await (
        await fetch(`${arena.baseUrl}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } })
      ).text();
      // Final outcomes only: `flagged` counts some of the `done` again.
      return [...metrics.matchAll(/^agora_postprocess_conversations_total\{outcome="(?:done|failed)"\} (\d+)/gm)].reduce(
        (sum, match) => sum + Number(match[1]),
        0,
      );
    };
    const caughtUpStarted = performance.now();
    while ((await postprocessed()) < total + warmup && performance.now() - caughtUpStarted < 60_000)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const caughtUpSeconds = (performance.now() - caughtUpStarted) / 1000;
    const cpuPerVote = ((cpuSeconds(arena.child.process.pid!) - cpuBefore) * 1e6) / acknowledged;
    console.log(
      `  post-processing of the voted conversations caught up ${caughtUpSeconds.toFixed(1)} s after the last vote (${await postprocessed()} conversations)`,
    );
    console.log(
      `  arena CPU per vote on ${label}: ${cpuPerVote.toFixed(0)} µs (user + system, with the post-processing of the voted conversation)`,
    );
    console.log(
      `votes on ${label}: ${acknowledged}/${ids.length} acknowledged in ${seconds.toFixed(2)} s = ${(acknowledged / seconds).toFixed(0)} votes/s (32 concurrent clients)   goal: ${label === 'sqlite' ? '≥ 2,000' : '≥ 1,000'}/s`,
    );
  } finally {
    await arena.child.stop();
  }
}

function postgresAdminUrl(): string | undefined {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  try {
    return execFileSync('bash', [join(root, 'scripts/postgres.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

export async function run(): Promise<void> {
  if (pinned) {
    execFileSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
    console.log('pinned: the arena on core 0; the fake upstream and the load generator on core 1');
  }
  const folder = mkdtempSync(join(tmpdir(), 'agora-bench-'));
  const { child: fake, match } = await startChild(
    join(root, 'packages/server/bench/fake-upstream.process.ts'),
    {
      FAKE_FIRST_TOKEN_MS: String(pace.firstTokenMs),
      FAKE_TOKENS_PER_SECOND: String(pace.tokensPerSecond),
      FAKE_ANSWER_TOKENS: String(pace.answerTokens),
    },
    /ready (\d+)/,
    { core: 1 },
  );
  const upstreamUrl = `http://127.0.0.1:${match[1]}/v1`;
  if (niced) {
    setPriority(fake.process.pid!, 10);
    console.log('niced: the fake upstream and the load generator at nice 10, the arena at 0');
  }
  try {
    const pacedPath = join(folder, 'paced.yaml');
    writeFileSync(pacedPath, catalogue(upstreamUrl, 'paced'));
    const arena = await startArena(`sqlite:${join(folder, 'paced.db')}`, pacedPath);
    // Lowered after the arena started, which keeps the default priority.
    if (niced) setPriority(10);
    try {
      const arenaFigures = measurements.has('ttft') ? await addedFirstToken(arena, upstreamUrl, fake, ttftDuels) : undefined;
      if (measurements.has('duels')) for (const concurrency of [500, 750]) await concurrentDuels(arena, concurrency);
      // Last: the load generator's idle keep-alive connections to the arena are never reused after it.
      if (measurements.has('ttft-floor')) {
        const { child: relay, match: relayMatch } = await startChild(
          join(root, 'packages/server/bench/bare-relay.process.ts'),
          { UPSTREAM_URL: upstreamUrl },
          /"url":"(http:\/\/[^"]+)"/,
          { logFile: join(folder, 'bare-relay.log'), nodeOptions: arenaNodeOptions, core: 0 },
        );
        // Started after this process lowered its priority: back to the arena's (allowed to root only).
        if (niced) {
          try {
            setPriority(relay.process.pid!, 0);
          } catch {
            // The relay has already exited: nothing to restore.
          }
        }
        try {
          console.log(
            'the least a Node.js relay adds (bare-relay.process.ts: no validation, store or bookkeeping), measured as the arena:',
          );
          const relayFigures = await addedFirstToken({ child: relay, baseUrl: relayMatch[1]! }, upstreamUrl, fake, ttftDuels);
          if (arenaFigures) printFloorComparison(arenaFigures, relayFigures);
        } finally {
          await relay.stop();
        }
      }
    } finally {
      await arena.child.stop();
      // The arenas of the votes measurement inherit this process's priority: back to the default
      // (allowed to root only; otherwise every process of that measurement stays at nice 10).
      if (niced) {
        try {
          setPriority(0);
        } catch {
          // Raising a priority back needs privileges this user may lack: the bench goes on niced.
        }
      }
    }
    if (!measurements.has('votes')) return;
    await votesPerSecond('sqlite', `sqlite:${join(folder, 'votes.db')}`, upstreamUrl, folder);
    const adminUrl = postgresAdminUrl();
    if (!adminUrl) {
      console.log('votes on postgresql: skipped (no PostgreSQL server: set TEST_DATABASE_URL or install Debian postgresql)');
      return;
    }
    const database = `agora_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    try {
      const url = new URL(adminUrl);
      url.pathname = `/${database}`;
      await votesPerSecond('postgresql', url.toString(), upstreamUrl, folder);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
  } finally {
    await fake.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}
