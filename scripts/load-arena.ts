/**
 * `npm run load -- [--store sqlite|postgres] [--duels 500] [--seed N] [--timeout-s 420]`: a bounded
 * load run on loopback. It starts a real arena in this process as the tests do
 * (packages/server/test/test-arena.ts) with the fake upstream of the tests behind it (in a worker
 * thread of this process by default: see `--upstream`), warms it up, then plays N duels at once,
 * each as a visitor of its own (an ArenaClient with its own cookie: a duel is only its visitor's),
 * streaming at 20–50 tokens a second, with about 10 % of the model draws failing in the fake's ways
 * (HTTP 500, 429 and 503, a cut stream, a malformed chunk, a stream that never ends). A quarter of
 * the complete duels get a follow-up turn; every duel is then voted on. It checks that:
 *  - nothing is logged at level error or above, and no rejection or exception goes unhandled;
 *  - no turn is one-sided: a turn whose last frame says `complete` has both sides complete, in the
 *    stream (a `side-end` for each) and in the store (`turn_sides`), with the streamed texts stored;
 *    any other turn ends with `turn-error` then `turn-end failed`, is stored failed, and its duel
 *    refuses the vote (409);
 *  - every stream ends with `turn-end` and closes within a bound, and the whole run within `--timeout-s`;
 *  - the peak RSS of the process stays under `--max-rss-mb` (600 by default), and the live heap
 *    (after a full GC) comes back to within `--max-heap-growth-mb` of its warm-up level once the
 *    duels have ended and left the replay window (no leak).
 * It prints a summary and exits 1 when a check fails (2 on a usage error).
 *
 * `npm run load -- --scenario campaign` runs another scenario instead, with options of its own: the
 * red team's paced vote campaign among honest visitors (scripts/load-campaign.ts). It prints the
 * target's rating change against its interval and the honest visitors' flag rate, and exits 1 unless
 * the campaign moved the target by less than the interval's half-width and changed no rank, and at
 * most 1 % of honest votes were flagged. `--scenario cluster-push` pushes one prompt cluster from 50
 * cookies after honest votes and exits 1 if any rank on the live board moves
 * (scripts/load-cluster-push.ts). `--scenario duels` (the default) is the run above.
 *
 * PostgreSQL: `export TEST_DATABASE_URL=$(bash scripts/postgres.sh)` first; a fresh database is
 * created for the run and dropped afterwards.
 */
import { Agent, type IncomingMessage, get as httpGet } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { Writable } from 'node:stream';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { pino } from 'pino';
import { type StreamEvent, parseStreamFrame } from '@agora/contract';
import { parseCatalogue } from '../packages/server/src/config/catalogue';
import type { FakeBehaviour, FakeUpstream } from '../packages/server/test/fake-upstream/fake-upstream';
import { ArenaClient, type TestArena, startTestArena } from '../packages/server/test/test-arena';
import { DIALECTS } from '../packages/server/test/test-db';
import { describeError, printChecks, runScript } from './script-checks';
import { seededRandom } from '../packages/server/test/seeded-random';
import { runCampaignScenario } from './load-campaign';
import { runClusterPushScenario } from './load-cluster-push';

// `--scenario campaign` is a run of its own, with its own options: it ends the process here.
const { values: scenarioArgs } = parseArgs({ options: { scenario: { type: 'string', default: 'duels' } }, strict: false });
if (scenarioArgs.scenario === 'campaign') process.exit(await runCampaignScenario(process.argv.slice(2)));
if (scenarioArgs.scenario === 'cluster-push') process.exit(await runClusterPushScenario(process.argv.slice(2)));

// ---------------------------------------------------------------------------------------------
// Options

const { values: args } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'duels' },
    store: { type: 'string', default: 'sqlite' },
    duels: { type: 'string', default: '500' },
    seed: { type: 'string', default: '1' },
    'timeout-s': { type: 'string', default: '420' },
    'ramp-ms': { type: 'string', default: '2000' },
    'failure-rate': { type: 'string', default: '0.1' },
    'follow-up-rate': { type: 'string', default: '0.25' },
    'max-rss-mb': { type: 'string', default: '600' },
    'max-heap-growth-mb': { type: 'string', default: '64' },
    warmup: { type: 'string', default: '20' },
    'gc-every-s': { type: 'string', default: '5' },
    connections: { type: 'string', default: 'warm' },
    'first-token-timeout-ms': { type: 'string', default: '10000' },
    'total-timeout-ms': { type: 'string', default: '30000' },
    upstream: { type: 'string', default: 'worker' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

function usage(message?: string): never {
  if (message) process.stderr.write(`load-arena: ${message}\n`);
  process.stderr.write(
    'usage: node --import tsx scripts/load-arena.ts [--scenario duels|campaign|cluster-push] [--store sqlite|postgres] [--duels 500] [--seed 1] [--timeout-s 420]\n' +
      '       [--ramp-ms 2000] [--failure-rate 0.1] [--follow-up-rate 0.25] [--max-rss-mb 600]\n' +
      '       [--first-token-timeout-ms 10000] [--total-timeout-ms 30000] [--upstream worker|main]\n' +
      '       [--max-heap-growth-mb 64] [--warmup 20] [--gc-every-s 5] [--connections warm|cold]\n',
  );
  process.exit(message ? 2 : 0);
}
if (args.help) usage();
if (args.scenario !== 'duels') usage('--scenario must be duels, campaign or cluster-push');

function numberOption(name: keyof typeof args, min: number, max: number): number {
  const value = Number(args[name]);
  if (!Number.isFinite(value) || value < min || value > max) usage(`--${name} must be a number in [${min}, ${max}]`);
  return value;
}

const storeName = args.store;
if (storeName !== 'sqlite' && storeName !== 'postgres') usage('--store must be sqlite or postgres');
const duelCount = Math.floor(numberOption('duels', 1, 20_000));
const seed = Math.floor(numberOption('seed', 0, 2 ** 32 - 1));
const overallTimeoutMs = numberOption('timeout-s', 10, 3600) * 1000;
const rampMs = numberOption('ramp-ms', 0, 600_000);
const failureRate = numberOption('failure-rate', 0, 0.9);
const followUpRate = numberOption('follow-up-rate', 0, 1);
const maxRssMb = numberOption('max-rss-mb', 50, 100_000);
const maxHeapGrowthMb = numberOption('max-heap-growth-mb', 1, 100_000);
const warmupCount = Math.floor(numberOption('warmup', 0, 1000));
const gcEveryMs = numberOption('gc-every-s', 0, 3600) * 1000;
/** AGORA_REPLAY_TTL_S below: finished turns stay in memory this long for reconnecting clients. */
const replayTtlS = 15;
const firstTokenTimeoutMs = Math.floor(numberOption('first-token-timeout-ms', 100, 600_000));
const totalTimeoutMs = Math.floor(numberOption('total-timeout-ms', 100, 600_000));
/** The server's retries of one call before its first token (AGORA_RETRIES, set below). */
const upstreamRetries = 1;
/**
 * The longest a turn may take: every attempt of a side (first try, its retry, one replacement and
 * its retry) up to the total timeout, and a margin for a busy machine. A stream still open after
 * that is a hang.
 */
const streamBoundMs = (upstreamRetries + 1) * 2 * totalTimeoutMs + 30_000;

/**
 * `warm`: the visitors' connections are opened before the duels (keep-alive, as a proxy in front of
 * the arena holds them). `cold`: each visitor connects when its duel starts; the arena then accepts
 * one new connection per turn of its event loop, which is busy with the duels already streaming,
 * so that hundreds of connections wait seconds in the listen queue.
 */
const connectionsMode = args.connections;
if (connectionsMode !== 'warm' && connectionsMode !== 'cold') usage('--connections must be warm or cold');
const upstreamMode = args.upstream;
if (upstreamMode !== 'worker' && upstreamMode !== 'main') usage('--upstream must be worker or main');

const dialect = DIALECTS.find((candidate) => candidate.name === storeName);
if (!dialect) usage('--store postgres needs TEST_DATABASE_URL: export TEST_DATABASE_URL=$(bash scripts/postgres.sh)');

// ---------------------------------------------------------------------------------------------
// Seeded randomness (mulberry32): the same seed plays the same duels with the same catalogue.

const random = seededRandom(seed);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

// ---------------------------------------------------------------------------------------------
// The catalogue: healthy models and, in the proportion asked, models whose every call fails in one
// of the fake upstream's ways. Each kind of failure sits behind each of the three clients (the lean
// OpenAI-compatible one, the AI SDK one, Anthropic's), so that every client meets every failure.

type FailureKind = 'http500' | 'http429' | 'http503' | 'cut' | 'malformed' | 'never_end';
const FAILURE_KINDS: readonly FailureKind[] = ['http500', 'http429', 'http503', 'cut', 'malformed', 'never_end'];
const CLIENTS = [
  { type: 'openai-compatible', client: undefined },
  { type: 'openai-compatible', client: 'ai-sdk' },
  { type: 'anthropic', client: undefined },
] as const;
const PARAMS = [8, 24, 32, 70, 120, 405];

interface LoadModel {
  id: string;
  upstream: string;
  params: number;
  reasoning: boolean;
  clientIndex: number;
  failure: FailureKind | undefined;
  behaviour: FakeBehaviour;
}

const WORDS = (
  'the a of to and in is that for it as with on be this by are at from or an which can one more two answer ' +
  'question result value example point model data method system time first second simple clear short ' +
  'because however therefore also then when where each other some many most these those into about'
).split(' ');

/** An answer of about `tokens` word tokens, with a little markdown (headers, a list, bold) for the style counts. */
function answerText(tokens: number): string {
  const words: string[] = [];
  for (let index = 0; index < tokens; index += 1) words.push(pick(WORDS));
  const third = Math.floor(tokens / 3);
  return [
    '## Answer',
    '',
    `${words.slice(0, third).join(' ')}.`,
    '',
    `- **${words[third] ?? 'point'}** ${words.slice(third + 1, 2 * third).join(' ')}`,
    `- ${words.slice(2 * third).join(' ')}.`,
  ].join('\n');
}

function buildModels(): LoadModel[] {
  const failingCount = failureRate > 0 ? FAILURE_KINDS.length * CLIENTS.length : 0;
  const healthyCount = failureRate > 0 ? Math.max(2, Math.round((failingCount * (1 - failureRate)) / failureRate)) : 30;
  const models: LoadModel[] = [];
  for (let index = 0; index < healthyCount + failingCount; index += 1) {
    const failure = index < healthyCount ? undefined : FAILURE_KINDS[Math.floor((index - healthyCount) / CLIENTS.length)];
    const clientIndex = index % CLIENTS.length;
    const id = failure ? `load-fail-${failure.replace('_', '-')}-${clientIndex}` : `load-model-${String(index).padStart(3, '0')}`;
    const reasoning = index % 5 === 0;
    const tokensPerSecond = 20 + Math.floor(random() * 31);
    const base: FakeBehaviour = {
      text: answerText(120 + Math.floor(random() * 180)),
      tokensPerSecond,
      firstTokenDelayMs: 100 + Math.floor(random() * 600),
      ...(reasoning ? { reasoning: answerText(15 + Math.floor(random() * 15)) } : {}),
      // Without usage the arena counts tokens itself. Not for Anthropic: its message_delta always carries
      // usage.output_tokens, and the AI SDK refuses one without it (every such call fails malformed_stream).
      ...(index % 4 === 0 && CLIENTS[index % CLIENTS.length]!.type !== 'anthropic' ? { noUsage: true } : {}),
    };
    const failures: Record<FailureKind, FakeBehaviour> = {
      http500: { httpStatus: 500 },
      http429: { httpStatus: 429, retryAfterS: 1 },
      http503: { httpStatus: 503 },
      cut: { cutAfterChunks: 5 + Math.floor(random() * 20) },
      malformed: { malformedAfterChunks: 3 + Math.floor(random() * 20) },
      never_end: { neverEnd: true },
    };
    models.push({
      id,
      upstream: `upstream/${id}`,
      params: PARAMS[index % PARAMS.length]!,
      reasoning,
      clientIndex,
      failure,
      behaviour: { ...base, ...(failure ? failures[failure] : {}) },
    });
  }
  return models;
}

function catalogueYaml(models: readonly LoadModel[], baseUrl: string): string {
  return `models:\n${models
    .map((model) => {
      const client = CLIENTS[model.clientIndex]!;
      return `  - id: ${model.id}
    name: Load Model ${model.id}
    organisation: Load Lab ${model.clientIndex}
    license: Apache 2.0
    open_weights: true
    arch: dense
    params_b: ${model.params}
    reasoning: ${model.reasoning}
    release_date: '2026-01'
    provider:
      type: ${client.type}${client.client ? `\n      client: ${client.client}` : ''}
      base_url: ${baseUrl}
      model: ${model.upstream}
    options:
      first_token_timeout_ms: ${firstTokenTimeoutMs}
      total_timeout_ms: ${totalTimeoutMs}`;
    })
    .join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// The server's log: JSON lines counted by level; errors (level ≥ 50) kept in full.

interface LogLine {
  level?: number;
  msg?: string;
  [key: string]: unknown;
}
const logCounts = { lines: 0, byLevel: new Map<number, number>(), byMessage: new Map<string, number>(), unparsable: 0 };
const errorLines: string[] = [];
const upstreamFailureKinds = new Map<string, number>();
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line === '') continue;
      logCounts.lines += 1;
      let parsed: LogLine;
      try {
        parsed = JSON.parse(line) as LogLine;
      } catch {
        logCounts.unparsable += 1;
        continue;
      }
      const level = typeof parsed.level === 'number' ? parsed.level : 0;
      logCounts.byLevel.set(level, (logCounts.byLevel.get(level) ?? 0) + 1);
      if (level >= 40) logCounts.byMessage.set(`${level} ${parsed.msg}`, (logCounts.byMessage.get(`${level} ${parsed.msg}`) ?? 0) + 1);
      if (level >= 50) errorLines.push(line);
      if (parsed.msg === 'request' && parsed.method === 'POST' && parsed.route === '/api/v1/duels' && typeof parsed.ms === 'number')
        serverCreateMs.push(parsed.ms);
      if (parsed.msg === 'request' && parsed.route === '/api/v1/duels/:id/stream' && typeof parsed.ms === 'number')
        serverStreamMs.push(parsed.ms);
      if (parsed.msg === 'upstream call failed') {
        const upstream = parsed.upstream as { kind?: string; statusCode?: number; model?: string } | undefined;
        const client = clientOfModel.get(upstream?.model ?? '') ?? '?';
        const key = `${upstream?.kind ?? '?'}${upstream?.statusCode ? ` ${upstream.statusCode}` : ''} (${client})`;
        upstreamFailureKinds.set(key, (upstreamFailureKinds.get(key) ?? 0) + 1);
      }
    }
    done();
  },
});

/** How long the arena's handler took for each `POST /api/v1/duels`, from its log (the rest of the latency is queueing). */
const serverCreateMs: number[] = [];
const serverStreamMs: number[] = [];

/** Which client each catalogue model goes through, for the failure counts of the log. */
const clientOfModel = new Map<string, string>();

const processErrors: string[] = [];
process.on('unhandledRejection', (reason) => processErrors.push(`unhandledRejection: ${describeError(reason)}`));
process.on('uncaughtException', (error) => processErrors.push(`uncaughtException: ${describeError(error)}`));
process.on('warning', (warning) => processErrors.push(`warning: ${warning.name}: ${warning.message}`));

// ---------------------------------------------------------------------------------------------
// Memory and event loop

let peakRssBytes = 0;
let peakHeapBytes = 0;
const sampleMemory = () => {
  const usage = process.memoryUsage();
  peakRssBytes = Math.max(peakRssBytes, usage.rss);
  peakHeapBytes = Math.max(peakHeapBytes, usage.heapUsed);
};
const loopDelay = monitorEventLoopDelay({ resolution: 20 });

/**
 * A full garbage collection, for the live heap: V8 lets garbage pile up while memory is plentiful, so
 * that RSS and heap-used peaks say little about what the arena keeps. Exposed at run time (the
 * script runs under plain `node --import tsx`); each call stops the process for 100–200 ms.
 */
function exposeGc(): () => void {
  setFlagsFromString('--expose_gc');
  return runInNewContext('gc') as () => void;
}
const collectGarbage = exposeGc();
function liveHeapBytes(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}
const quantiles = (values: readonly number[]): string => {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (q: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  return `p50 ${(at(0.5) / 1000).toFixed(2)} s, p99 ${(at(0.99) / 1000).toFixed(2)} s, max ${(at(1) / 1000).toFixed(2)} s`;
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

// ---------------------------------------------------------------------------------------------
// The fake upstream. By default it runs in a worker thread of this process, with an event loop of
// its own: the vendors are other machines in production, and a fake sharing the arena's event loop
// accepts its new connections only as fast as that loop turns (libuv takes one pending connection
// per listener per poll), so that under load the arena's calls waited seconds to connect and failed
// on their first-token timeout for reasons of the test bench. `--upstream main` runs it on the
// arena's thread, as packages/server/test/test-arena.ts does.

interface UpstreamStats {
  requests: number;
  byModel: Record<string, number>;
  aborted: number;
  completed: number;
}

interface Upstream {
  baseUrl: string;
  stats(): Promise<UpstreamStats>;
  stop(): Promise<void>;
}

function statsOf(fake: FakeUpstream): UpstreamStats {
  const byModel: Record<string, number> = {};
  for (const request of fake.requests) byModel[request.model] = (byModel[request.model] ?? 0) + 1;
  return {
    requests: fake.requests.length,
    byModel,
    aborted: fake.requests.filter((request) => request.aborted).length,
    completed: fake.requests.filter((request) => request.completed).length,
  };
}

type UpstreamMessage = { type: 'ready'; baseUrl: string } | ({ type: 'stats' } & UpstreamStats) | { type: 'stopped' };

/**
 * The worker's code: a FakeUpstream with the behaviours it was given, answering `stats` and `stop`.
 * Plain JavaScript, so that the worker loads the fake upstream alone (and not this script and the
 * whole server with it); it registers tsx first, whose `--import` hooks Node 20 workers do not inherit.
 */
const upstreamWorkerCode = (tsxApi: string, fakeUpstreamModule: string) => `
const { parentPort, workerData } = require('node:worker_threads');
import(${JSON.stringify(tsxApi)})
  .then(({ register }) => { register(); return import(${JSON.stringify(fakeUpstreamModule)}); })
  .then(async ({ FakeUpstream }) => {
    const fake = await new FakeUpstream().start();
    for (const [model, behaviour] of workerData.behaviours) fake.behave(model, behaviour);
    parentPort.on('message', (message) => {
      if (message === 'stats') {
        const byModel = {};
        let aborted = 0;
        let completed = 0;
        for (const request of fake.requests) {
          byModel[request.model] = (byModel[request.model] ?? 0) + 1;
          if (request.aborted) aborted += 1;
          if (request.completed) completed += 1;
        }
        parentPort.postMessage({ type: 'stats', requests: fake.requests.length, byModel, aborted, completed });
      } else {
        fake.stop().then(() => { parentPort.postMessage({ type: 'stopped' }); parentPort.close(); });
      }
    });
    parentPort.postMessage({ type: 'ready', baseUrl: fake.baseUrl });
  });
`;

async function startUpstreamWorker(models: readonly LoadModel[]): Promise<Upstream> {
  const code = upstreamWorkerCode(
    import.meta.resolve('tsx/esm/api'),
    new URL('../packages/server/test/fake-upstream/fake-upstream.ts', import.meta.url).href,
  );
  const worker = new Worker(code, {
    eval: true,
    workerData: { behaviours: models.map((model) => [model.upstream, model.behaviour]) },
  });
  worker.on('error', (error) => {
    processErrors.push(`upstream worker: ${describeError(error)}`);
    process.stderr.write(`load-arena: the upstream worker failed: ${describeError(error)}\n`);
  });
  const waiting: ((message: UpstreamMessage) => void)[] = [];
  worker.on('message', (message: UpstreamMessage) => waiting.shift()?.(message));
  const next = () => new Promise<UpstreamMessage>((resolve) => waiting.push(resolve));
  const ready = await next();
  if (ready.type !== 'ready') throw new Error('the upstream worker did not start');
  return {
    baseUrl: ready.baseUrl,
    stats: async () => {
      const answer = next();
      worker.postMessage('stats');
      const message = await answer;
      if (message.type !== 'stats') throw new Error(`unexpected answer of the upstream worker: ${message.type}`);
      const { type: _type, ...stats } = message;
      return stats;
    },
    stop: async () => {
      const answer = next();
      worker.postMessage('stop');
      await withTimeout(answer, 10_000, 'upstream worker stop').catch(() => undefined);
      await worker.terminate();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// One duel, as one visitor

interface TurnSeen {
  turn: number;
  /** The last frame's status, or why the stream did not end properly. */
  end: 'complete' | 'failed' | 'no-turn-end' | 'timeout' | 'http-error' | 'client-error';
  detail?: string;
  frames: number;
  sideEnds: { a: number; b: number };
  turnErrors: string[];
  text: { a: string; b: string };
  /** Frames after turn-end, frames out of order, ids not 1, 2, 3…, turn-start not first. */
  protocolErrors: string[];
  ms: number;
  /** From the request for the stream to its first text or reasoning delta. */
  firstDeltaMs?: number;
  /** From the request for the stream to its headers, and to its first frame. */
  headersMs?: number;
  firstFrameMs?: number;
}

interface DuelSeen {
  index: number;
  id?: string;
  mode: string;
  /** Custom mode's two models (the warm-up's). */
  models?: [string, string];
  createStatus?: number;
  createError?: string;
  turns: TurnSeen[];
  vote?: { status: number; code?: string };
  requestErrors: string[];
  endedAt?: number;
  /** From sending `POST /api/v1/duels` to its answer. */
  createMs?: number;
}

const MODES = ['random', 'random', 'random', 'random', 'random', 'random', 'small-models', 'big-vs-small', 'reasoning', 'random'] as const;
const PROMPTS = [
  'Explique la photosynthèse simplement.',
  'What is the difference between a list and a tuple?',
  'Écris un haïku sur la mer 🌊',
  'Wie funktioniert ein Kühlschrank?',
  '¿Por qué el cielo es azul?',
  'Summarise the causes of the French Revolution in three points.',
];

/**
 * The visitors read their streams with Node's HTTP client and the contract's frame parser
 * (`parseStreamFrame`), not fetch: the load generator shares the arena's event loop, and fetch's web
 * streams cost it several times more per frame.
 */
const streamAgent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

function openStream(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { agent: streamAgent, headers, signal }, resolve);
    request.once('error', reject);
  });
}

/** The frames of a `text/event-stream` body (WHATWG rules, as readStreamFrames); `null` for a frame the schema refuses. */
async function* eventStream(response: IncomingMessage): AsyncGenerator<{ id: string | undefined; event: StreamEvent | null }> {
  response.setEncoding('utf8');
  let buffer = '';
  let type = '';
  let data: string[] = [];
  let id: string | undefined;
  for await (const chunk of response as AsyncIterable<string>) {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (data.length > 0) yield { id, event: parseStreamFrame(type || 'message', data.join('\n')) };
        type = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
  }
}

async function readTurn(client: ArenaClient, duelId: string, turn: number): Promise<TurnSeen> {
  const seen: TurnSeen = {
    turn,
    end: 'no-turn-end',
    frames: 0,
    sideEnds: { a: 0, b: 0 },
    turnErrors: [],
    text: { a: '', b: '' },
    protocolErrors: [],
    ms: 0,
  };
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('stream bound exceeded')), streamBoundMs);
  try {
    const response = await openStream(
      `${client.baseUrl}/api/v1/duels/${duelId}/stream?turn=${turn}`,
      client.visitorCookie ? { cookie: client.visitorCookie } : {},
      controller.signal,
    );
    seen.headersMs = performance.now() - started;
    if (response.statusCode !== 200) {
      let body = '';
      for await (const chunk of response as AsyncIterable<Buffer>) body += chunk.toString();
      seen.end = 'http-error';
      seen.detail = `${response.statusCode} ${body}`;
      return seen;
    }
    let ended: StreamEvent | undefined;
    for await (const frame of eventStream(response)) {
      seen.frames += 1;
      seen.firstFrameMs ??= performance.now() - started;
      const event = frame.event;
      if (frame.id !== String(seen.frames)) seen.protocolErrors.push(`frame ${seen.frames} has id ${frame.id}`);
      if (!event) {
        seen.protocolErrors.push(`frame ${seen.frames} does not parse with the stream event schema`);
        continue;
      }
      if (ended) seen.protocolErrors.push(`${event.type} after turn-end`);
      if (seen.frames === 1 && event.type !== 'turn-start') seen.protocolErrors.push(`first frame is ${event.type}`);
      switch (event.type) {
        case 'turn-start':
          if (seen.frames !== 1) seen.protocolErrors.push('turn-start not first');
          if (event.turn !== turn) seen.protocolErrors.push(`turn-start of turn ${event.turn}`);
          break;
        case 'text-delta':
          seen.firstDeltaMs ??= performance.now() - started;
          if (seen.sideEnds[event.side] > 0) seen.protocolErrors.push(`text-delta of side ${event.side} after its side-end`);
          seen.text[event.side] += event.text;
          break;
        case 'reasoning-delta':
          seen.firstDeltaMs ??= performance.now() - started;
          break;
        case 'side-end':
          seen.sideEnds[event.side] += 1;
          break;
        case 'turn-error':
          seen.turnErrors.push(event.code);
          break;
        case 'turn-end':
          ended = event;
          seen.end = event.status;
          if (event.turn !== turn) seen.protocolErrors.push(`turn-end of turn ${event.turn}`);
          break;
      }
    }
  } catch (error) {
    seen.end = controller.signal.aborted ? 'timeout' : 'client-error';
    seen.detail = describeError(error).split('\n')[0];
  } finally {
    clearTimeout(timer);
    seen.ms = performance.now() - started;
  }
  return seen;
}

/** A request with a bound; its failure is recorded, never thrown. */
async function call(
  client: ArenaClient,
  seen: DuelSeen,
  method: string,
  path: string,
  body: unknown,
): Promise<{ status: number; json: unknown } | undefined> {
  try {
    const result = await Promise.race([
      client.request(method, path, body),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within 60 s`)), 60_000).unref()),
    ]);
    const json: unknown = result.json;
    return { status: result.status, json };
  } catch (error) {
    seen.requestErrors.push(`${method} ${path}: ${describeError(error).split('\n')[0]}`);
    return undefined;
  }
}

const errorCode = (json: unknown): string | undefined => {
  if (typeof json !== 'object' || json === null || !('error' in json)) return undefined;
  const error: unknown = json.error;
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
};

async function playDuel(index: number, baseUrl: string, seen: DuelSeen, plan: { delayMs: number; followUp: boolean }) {
  await new Promise((resolve) => setTimeout(resolve, plan.delayMs));
  const client = new ArenaClient(baseUrl);
  const prompt = `${PROMPTS[index % PROMPTS.length]} (#${index})`;
  const createStarted = performance.now();
  const created = await call(client, seen, 'POST', '/api/v1/duels', {
    prompt,
    mode: seen.mode,
    ...(seen.models ? { models: seen.models } : {}),
    locale: index % 2 === 0 ? 'fr' : 'en-GB',
  });
  seen.createStatus = created?.status;
  seen.createMs = performance.now() - createStarted;
  if (!created || created.status !== 201) {
    seen.createError = created ? JSON.stringify(created.json) : 'no answer';
    return;
  }
  const id = (created.json as { id: string }).id;
  seen.id = id;
  let turn = await readTurn(client, id, 1);
  seen.turns.push(turn);
  if (turn.end === 'complete' && plan.followUp) {
    const next = await call(client, seen, 'POST', `/api/v1/duels/${id}/messages`, { prompt: `Et plus court ? (#${index})` });
    if (next?.status === 201) {
      turn = await readTurn(client, id, 2);
      seen.turns.push(turn);
    } else if (next) seen.requestErrors.push(`follow-up answered ${next.status} ${JSON.stringify(next.json)}`);
  }
  // A complete duel takes its vote; a failed one must refuse it (409), nothing being votable one-sided.
  if (turn.end === 'complete' || turn.end === 'failed') {
    const vote = await call(client, seen, 'POST', `/api/v1/duels/${id}/vote`, { choice: pick(['a', 'b', 'tie', 'both_bad']) });
    if (vote) seen.vote = { status: vote.status, code: errorCode(vote.json) };
  }
  seen.endedAt = performance.now();
}

// ---------------------------------------------------------------------------------------------
// After the run: the store, turn by turn, against what each visitor saw.

interface Finding {
  duel: string;
  problem: string;
}

async function checkStore(harness: TestArena, duels: readonly DuelSeen[]) {
  const findings: { oneSided: Finding[]; mismatches: Finding[]; unfinished: Finding[] } = { oneSided: [], mismatches: [], unfinished: [] };
  const totals = { turns: 0, completeTurns: 0, failedTurns: 0, replaced: 0, upstreamErrors: new Map<string, number>() };
  /** What the store says of each turn, for the slowest first deltas. */
  const explained = new Map<TurnSeen, string>();
  const store = harness.arena.store;
  for (const duel of duels) {
    if (!duel.id) continue;
    const [record, turns, sides, errors] = await Promise.all([
      store.duels.findById(duel.id),
      store.duels.listTurns(duel.id),
      store.duels.listSides(duel.id),
      store.duels.listUpstreamErrors(duel.id),
    ]);
    for (const error of errors) {
      totals.upstreamErrors.set(error.kind, (totals.upstreamErrors.get(error.kind) ?? 0) + 1);
      if (error.replaced) totals.replaced += 1;
    }
    const failedTurn = turns.some((turn) => turn.status === 'failed');
    const expectedStatus = failedTurn ? 'failed' : duel.vote?.status === 200 ? 'voted' : 'ready';
    if (record?.status !== expectedStatus)
      findings.mismatches.push({ duel: duel.id, problem: `duel stored ${record?.status}, expected ${expectedStatus}` });
    for (const turn of turns) {
      totals.turns += 1;
      const seen = duel.turns.find((candidate) => candidate.turn === turn.turn);
      const stored = {
        a: sides.find((side) => side.turn === turn.turn && side.side === 'a'),
        b: sides.find((side) => side.turn === turn.turn && side.side === 'b'),
      };
      const where = `turn ${turn.turn}`;
      if (turn.status === 'streaming') {
        findings.unfinished.push({ duel: duel.id, problem: `${where} still streaming in the store after the run` });
        continue;
      }
      if (turn.status === 'complete') totals.completeTurns += 1;
      else totals.failedTurns += 1;
      if (!stored.a || !stored.b)
        findings.oneSided.push({
          duel: duel.id,
          problem: `${where} ${turn.status} with sides stored: ${
            Object.keys(stored)
              .filter((side) => stored[side as 'a' | 'b'])
              .join(',') || 'none'
          }`,
        });
      if (turn.status === 'complete') {
        for (const side of ['a', 'b'] as const) {
          if (stored[side] && stored[side].status !== 'complete')
            findings.oneSided.push({ duel: duel.id, problem: `${where} stored complete but side ${side} is ${stored[side].status}` });
        }
      } else if (![stored.a?.status, stored.b?.status].includes('failed')) {
        findings.mismatches.push({
          duel: duel.id,
          problem: `${where} stored failed but no side failed (${stored.a?.status}/${stored.b?.status})`,
        });
      }
      if (!seen) continue;
      const describeSide = (side: 'a' | 'b') => {
        const record = stored[side];
        const failures = errors.filter((error) => error.turn === turn.turn && error.side === side);
        return `${side}: ${record?.modelId ?? '?'} ${record?.status ?? '?'} ttft ${record?.ttftMs ?? '-'} ms${
          failures.length > 0
            ? ` after ${failures.map((error) => `${error.modelId} ${error.kind}${error.replaced ? ' (replaced)' : ''}`).join(', ')}`
            : ''
        }`;
      };
      explained.set(seen, `${turn.status}; ${describeSide('a')}; ${describeSide('b')}`);
      if (seen.end !== turn.status)
        findings.mismatches.push({
          duel: duel.id,
          problem: `${where} streamed ${seen.end} (${seen.detail ?? ''}) but stored ${turn.status}`,
        });
      if (seen.end === 'complete') {
        for (const side of ['a', 'b'] as const) {
          if (seen.sideEnds[side] !== 1)
            findings.oneSided.push({ duel: duel.id, problem: `${where} ended complete with ${seen.sideEnds[side]} side-end for ${side}` });
          if (stored[side] && stored[side].text !== seen.text[side])
            findings.mismatches.push({
              duel: duel.id,
              problem: `${where} side ${side}: streamed ${seen.text[side].length} chars, stored ${stored[side].text.length}`,
            });
        }
        if (seen.turnErrors.length > 0)
          findings.oneSided.push({ duel: duel.id, problem: `${where} ended complete after turn-error ${seen.turnErrors.join(',')}` });
      }
      if (seen.end === 'failed' && seen.turnErrors.length !== 1)
        findings.mismatches.push({ duel: duel.id, problem: `${where} ended failed with ${seen.turnErrors.length} turn-error frames` });
    }
    for (const seen of duel.turns) {
      if (!turns.some((turn) => turn.turn === seen.turn))
        findings.mismatches.push({ duel: duel.id, problem: `turn ${seen.turn} streamed but not stored` });
    }
  }
  return { findings, totals, explained };
}

// ---------------------------------------------------------------------------------------------

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no end within ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function main(): Promise<number> {
  const runStarted = performance.now();
  const hardStop = setTimeout(() => {
    process.stdout.write(`\nload-arena: FAILED: the run did not end within --timeout-s ${overallTimeoutMs / 1000} s (a hang?)\n`);
    // The progress line needs the arena: a hang during the start has none to print.
    void Promise.resolve()
      .then(() => printProgress())
      .catch(() => undefined)
      .finally(() => process.exit(1));
  }, overallTimeoutMs);
  const models = buildModels();
  const failing = models.filter((model) => model.failure).length;
  for (const model of models) {
    const client = CLIENTS[model.clientIndex]!;
    clientOfModel.set(model.id, client.type === 'anthropic' ? 'anthropic' : (client.client ?? 'direct'));
  }
  process.stdout.write(
    `load-arena: store ${storeName}, ${duelCount} duels, seed ${seed}, ${connectionsMode} connections, ${models.length} models (${failing} always failing: ${(
      (100 * failing) /
      models.length
    ).toFixed(
      1,
    )} % of draws), first-token timeout ${firstTokenTimeoutMs} ms, total ${totalTimeoutMs} ms, stream bound ${streamBoundMs} ms\n`,
  );
  const environment: Record<string, string> = {
    AGORA_LIMIT_PROMPTS_PER_HOUR: '0',
    AGORA_LIMIT_PROMPTS_PER_HOUR_PER_ADDRESS: '0',
    AGORA_LIMIT_VOTES_PER_MINUTE: '0',
    AGORA_LIMIT_VOTES_PER_MINUTE_PER_ADDRESS: '0',
    // Every visitor is 127.0.0.1: its streams and transcripts are thousands of reads a minute.
    AGORA_LIMIT_READS_PER_MINUTE_PER_ADDRESS: '0',
    AGORA_MAX_CONNECTIONS_PER_CLIENT: '5000',
    AGORA_RETRIES: String(upstreamRetries),
    // The production default (the test harness keeps finished turns in memory for 60 s).
    AGORA_REPLAY_TTL_S: String(replayTtlS),
    // Votes arrive within seconds of the stream's end: the integrity rules would flag them, which is not the point here.
    AGORA_INTEGRITY_MIN_VOTE_S: '0',
  };
  const logger = pino({ level: 'info' }, sink);
  const worker = upstreamMode === 'worker' ? await startUpstreamWorker(models) : undefined;
  const harness = await startTestArena(dialect!, {
    environment,
    logger,
    catalogue: (fakeBaseUrl) => parseCatalogue(catalogueYaml(models, worker?.baseUrl ?? fakeBaseUrl), 'load-models.yaml', environment),
  });
  for (const model of models) harness.fake.behave(model.upstream, model.behaviour);
  const upstream: Upstream = worker ?? {
    baseUrl: harness.fake.baseUrl,
    stats: async () => statsOf(harness.fake),
    stop: async () => undefined,
  };
  process.stdout.write(
    `arena ${harness.baseUrl}, fake upstream ${upstream.baseUrl} (${upstreamMode === 'worker' ? 'worker thread' : 'arena thread'}), pid ${process.pid}\n`,
  );

  const newDuel = (index: number): DuelSeen => ({ index, mode: MODES[index % MODES.length]!, turns: [], requestErrors: [] });

  // Warm-up: what the arena loads on first use (the tokenizer, the language detector of the
  // post-processing, the ranking worker after votes) is loaded before the baseline is taken.
  const rssAtStartBytes = process.memoryUsage().rss;
  // Healthy models only: a never-ending one would hold the warm-up for its total timeout.
  const healthy = models.filter((model) => !model.failure).map((model) => model.id);
  const warmups = Array.from({ length: warmupCount }, (_, index): DuelSeen => ({
    ...newDuel(duelCount + index),
    mode: 'custom',
    models: [healthy[(2 * index) % healthy.length]!, healthy[(2 * index + 1) % healthy.length]!],
  }));
  await Promise.all(warmups.map((seen) => playDuel(seen.index, harness.baseUrl, seen, { delayMs: 0, followUp: false })));
  await withTimeout(harness.arena.duels.drain(), 120_000, 'warm-up drain');
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const baseline = { heap: liveHeapBytes(), rss: process.memoryUsage().rss };
  process.stdout.write(
    `warm-up: ${warmupCount} duels; live heap ${mb(baseline.heap)}, rss ${mb(baseline.rss)} (rss at start ${mb(rssAtStartBytes)})\n`,
  );
  if (connectionsMode === 'warm') {
    // Keep-alive connections opened while the arena is idle, one per visitor in each client's pool
    // (fetch for the requests, Node's HTTP client for the streams), which reuse them.
    await Promise.all(Array.from({ length: duelCount }, () => fetch(`${harness.baseUrl}/healthz`).then((response) => response.text())));
    await Promise.all(
      Array.from(
        { length: duelCount },
        () =>
          new Promise<void>((resolve, reject) =>
            httpGet(`${harness.baseUrl}/healthz`, { agent: streamAgent }, (response) => response.resume().once('end', resolve)).once(
              'error',
              reject,
            ),
          ),
      ),
    );
  }
  peakRssBytes = 0;
  peakHeapBytes = 0;

  const duels: DuelSeen[] = Array.from({ length: duelCount }, (_, index) => newDuel(index));
  const plans = duels.map(() => ({ delayMs: random() * rampMs, followUp: random() < followUpRate }));
  const inFlight = () => duels.filter((duel) => duel.id && duel.endedAt === undefined).length;
  let maxInFlight = 0;
  const liveHeapSamples: { at: number; heap: number; inFlight: number; gcMs: number }[] = [];

  const memoryTimer = setInterval(() => {
    sampleMemory();
    maxInFlight = Math.max(maxInFlight, inFlight());
  }, 100);
  const gcTimer =
    gcEveryMs > 0
      ? setInterval(() => {
          const gcStarted = performance.now();
          const heap = liveHeapBytes();
          liveHeapSamples.push({ at: gcStarted, inFlight: inFlight(), heap, gcMs: performance.now() - gcStarted });
        }, gcEveryMs)
      : undefined;
  loopDelay.enable();
  const utilisationAtStart = performance.eventLoopUtilization();
  const progressTimer = setInterval(() => void printProgress(), 10_000);
  let finished = 0;
  async function printProgress() {
    const requests = (await upstream.stats().catch(() => undefined))?.requests;
    const streaming = inFlight();
    process.stdout.write(
      `  … ${((performance.now() - runStarted) / 1000).toFixed(0)} s: ${finished}/${duelCount} duels done, ${streaming} in flight, ` +
        `rss ${mb(process.memoryUsage().rss)} (peak ${mb(peakRssBytes)}), upstream requests ${requests ?? '?'}\n`,
    );
  }

  const loadStarted = performance.now();
  await Promise.all(
    duels.map((seen, index) =>
      playDuel(index, harness.baseUrl, seen, plans[index]!)
        .catch((error: unknown) => {
          seen.requestErrors.push(`duel crashed: ${describeError(error)}`);
        })
        .finally(() => (finished += 1)),
    ),
  );
  const loadMs = performance.now() - loadStarted;
  sampleMemory();
  clearInterval(progressTimer);
  clearInterval(gcTimer);

  // Every turn stored (the arena's own drain), then the store against what the visitors saw.
  await withTimeout(harness.arena.duels.drain(), 60_000, 'drain');
  // Before the checks: the store is read turn by turn, and on SQLite that holds the event loop.
  clearInterval(memoryTimer);
  loopDelay.disable();
  const utilisation = performance.eventLoopUtilization(utilisationAtStart).utilization;
  const { findings, totals, explained } = await checkStore(harness, [...warmups, ...duels]);
  // Once every finished turn has left the replay window, what the arena still holds should be what it held before.
  process.stdout.write(`  … waiting ${replayTtlS + 2} s for the replay window of the last turns to pass\n`);
  await new Promise((resolve) => setTimeout(resolve, (replayTtlS + 2) * 1000));
  const finalHeap = liveHeapBytes();
  const heapGrowthBytes = finalHeap - baseline.heap;
  const peakLive = liveHeapSamples.reduce((best, sample) => (sample.heap > best.heap ? sample : best), {
    at: 0,
    heap: baseline.heap,
    inFlight: 0,
    gcMs: 0,
  });

  const upstreamStats = await upstream.stats();
  const injected = models.filter((model) => model.failure).reduce((sum, model) => sum + (upstreamStats.byModel[model.upstream] ?? 0), 0);
  const streamsTooLong = duels.flatMap((duel) => duel.turns.filter((turn) => turn.ms > streamBoundMs || turn.end === 'timeout'));
  const longestStreamMs = Math.max(0, ...duels.flatMap((duel) => duel.turns.map((turn) => turn.ms)));
  const badEnds = duels.flatMap((duel) =>
    duel.turns
      .filter((turn) => turn.end !== 'complete' && turn.end !== 'failed')
      .map((turn) => ({ duel: duel.id ?? `#${duel.index}`, turn })),
  );
  const protocolErrors = duels.flatMap((duel) =>
    duel.turns.flatMap((turn) => turn.protocolErrors.map((problem) => `${duel.id} turn ${turn.turn}: ${problem}`)),
  );
  const createFailures = duels.filter((duel) => duel.createStatus !== 201);
  const requestErrors = duels.flatMap((duel) => duel.requestErrors.map((error) => `${duel.id ?? `#${duel.index}`}: ${error}`));
  const votes = duels.map((duel) => ({ duel, vote: duel.vote }));
  const votedComplete = votes.filter(({ duel, vote }) => duel.turns.at(-1)?.end === 'complete' && vote?.status === 200).length;
  const voteRefusedFailed = votes.filter(({ duel, vote }) => duel.turns.at(-1)?.end === 'failed' && vote?.status === 409).length;
  const wrongVotes = votes.filter(
    ({ duel, vote }) =>
      vote &&
      ((duel.turns.at(-1)?.end === 'complete' && vote.status !== 200) || (duel.turns.at(-1)?.end === 'failed' && vote.status !== 409)),
  );
  const completedDuels = duels.filter((duel) => duel.turns.length > 0 && duel.turns.every((turn) => turn.end === 'complete')).length;
  const failedDuels = duels.filter((duel) => duel.turns.some((turn) => turn.end === 'failed')).length;
  const clientStatus5xx = duels.filter((duel) => (duel.createStatus ?? 0) >= 500 || (duel.vote?.status ?? 0) >= 500);
  const unhandled = errorLines.length + processErrors.filter((line) => !line.startsWith('warning')).length;
  const oneSided = findings.oneSided.length;
  const rssLimitBytes = maxRssMb * 1024 * 1024;
  const maxRssKernelBytes = process.resourceUsage().maxRSS * 1024;

  const closeStarted = performance.now();
  let closeError: string | undefined;
  await withTimeout(harness.close(), 60_000, 'arena close').catch((error: unknown) => (closeError = describeError(error)));
  await upstream.stop();
  const closeMs = performance.now() - closeStarted;
  clearTimeout(hardStop);

  const lines = [
    '',
    `== load-arena summary (store ${storeName}, seed ${seed}) ==`,
    `duels                     ${duelCount} after ${warmupCount} warm-up duels (created ${duelCount - createFailures.length}, follow-up turns ${duels.filter((duel) => duel.turns.length > 1).length})`,
    `completed duels           ${completedDuels}`,
    `failed duels              ${failedDuels}`,
    `turns stored              ${totals.turns}, warm-up included (complete ${totals.completeTurns}, failed ${totals.failedTurns})`,
    `upstream requests         ${upstreamStats.requests} (to always-failing models: ${injected}, ${((100 * injected) / Math.max(1, upstreamStats.requests)).toFixed(1)} %; cancelled by the arena ${upstreamStats.aborted}); fake upstream on the ${upstreamMode === 'worker' ? 'worker' : 'arena'} thread`,
    `upstream failures stored  ${[...totals.upstreamErrors].map(([kind, count]) => `${kind} ${count}`).join(', ') || 'none'}; models replaced ${totals.replaced}`,
    `upstream failures logged  ${[...upstreamFailureKinds].map(([kind, count]) => `${kind}: ${count}`).join(', ') || 'none'}`,
    `votes                     ${votedComplete} accepted on complete duels, ${voteRefusedFailed} refused (409) on failed ones, ${wrongVotes.length} wrong`,
    `one-sided turns           ${oneSided}`,
    `stream/store mismatches   ${findings.mismatches.length}`,
    `unfinished turns          ${findings.unfinished.length}`,
    `streams not ended well    ${badEnds.length} (timeouts ${streamsTooLong.length}; longest stream ${(longestStreamMs / 1000).toFixed(1)} s, bound ${(streamBoundMs / 1000).toFixed(0)} s)`,
    `protocol errors           ${protocolErrors.length}`,
    `create failures           ${createFailures.length}; request errors ${requestErrors.length}; 5xx answers ${clientStatus5xx.length}`,
    `unhandled errors          ${unhandled} (log lines level>=50: ${errorLines.length}; process: ${processErrors.length})`,
    `log lines                 ${logCounts.lines} (${[...logCounts.byLevel].map(([level, count]) => `level ${level}: ${count}`).join(', ')})`,
    `wall time                 ${(loadMs / 1000).toFixed(1)} s for the duels; ${((performance.now() - runStarted) / 1000).toFixed(1)} s in all (close ${(closeMs / 1000).toFixed(1)} s)`,
    `peak RSS                  ${mb(peakRssBytes)} sampled during the duels (kernel maxRSS ${mb(maxRssKernelBytes)}), limit ${maxRssMb} MB; ${mb(rssAtStartBytes)} at start, ${mb(baseline.rss)} after the warm-up`,
    `heap                      peak used ${mb(peakHeapBytes)}; live after GC: ${mb(baseline.heap)} after the warm-up, at most ${mb(peakLive.heap)} during the duels (${peakLive.inFlight} in flight), ${mb(finalHeap)} at the end (growth ${mb(heapGrowthBytes)}, limit ${maxHeapGrowthMb} MB)`,
    `duels in flight           at most ${maxInFlight} at once`,
    `forced GCs                ${liveHeapSamples.length}, longest ${Math.max(0, ...liveHeapSamples.map((sample) => sample.gcMs)).toFixed(0)} ms (they count in the event loop delay below)`,
    `create latency            ${quantiles(duels.flatMap((duel) => (duel.createMs === undefined ? [] : [duel.createMs])))} (in the arena's handler: ${quantiles(serverCreateMs)})`,
    `stream handler (arena)    ${quantiles(serverStreamMs)}`,
    `first delta after stream  ${quantiles(duels.flatMap((duel) => duel.turns.flatMap((turn) => (turn.firstDeltaMs === undefined ? [] : [turn.firstDeltaMs]))))}`,
    `machine load average      ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')} at the end (1, 5, 15 min; ${cpus().length} cores): other work on the machine slows the run`,
    `event loop utilisation    ${(100 * utilisation).toFixed(0)} % during the duels (the arena and the visitors share this thread)`,
    `event loop delay          p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(0)} ms`,
  ];
  if (logCounts.byMessage.size > 0) {
    lines.push('warnings and errors logged:');
    for (const [message, count] of [...logCounts.byMessage].sort((x, y) => y[1] - x[1])) lines.push(`  ${count} × ${message}`);
  }
  const show = (title: string, items: readonly string[]) => {
    if (items.length === 0) return;
    lines.push(`${title} (${items.length}, first 10):`);
    for (const item of items.slice(0, 10)) lines.push(`  ${item.length > 2000 ? `${item.slice(0, 2000)}…` : item}`);
  };
  show('error log lines', errorLines);
  show('process errors and warnings', processErrors);
  show(
    'one-sided turns',
    findings.oneSided.map((finding) => `${finding.duel}: ${finding.problem}`),
  );
  show(
    'mismatches',
    findings.mismatches.map((finding) => `${finding.duel}: ${finding.problem}`),
  );
  show(
    'unfinished turns',
    findings.unfinished.map((finding) => `${finding.duel}: ${finding.problem}`),
  );
  show(
    'streams not ended well',
    badEnds.map(({ duel, turn }) => `${duel} turn ${turn.turn}: ${turn.end} after ${(turn.ms / 1000).toFixed(1)} s ${turn.detail ?? ''}`),
  );
  show('protocol errors', protocolErrors);
  show(
    'slowest first deltas (diagnostics)',
    duels
      .flatMap((duel) => duel.turns.map((turn) => ({ duel, turn })))
      .filter(({ turn }) => turn.firstDeltaMs !== undefined)
      .sort((x, y) => y.turn.firstDeltaMs! - x.turn.firstDeltaMs!)
      .slice(0, 5)
      .map(
        ({ duel, turn }) =>
          `${duel.id} turn ${turn.turn}: headers after ${((turn.headersMs ?? 0) / 1000).toFixed(1)} s, first frame ${((turn.firstFrameMs ?? 0) / 1000).toFixed(1)} s, first delta ${((turn.firstDeltaMs ?? 0) / 1000).toFixed(1)} s; ${explained.get(turn) ?? ''}`,
      ),
  );
  show(
    'create failures',
    createFailures.map((duel) => `#${duel.index}: ${duel.createStatus} ${duel.createError ?? ''}`),
  );
  show('request errors', requestErrors);
  show(
    'wrong vote answers',
    wrongVotes.map(({ duel, vote }) => `${duel.id}: last turn ${duel.turns.at(-1)?.end}, vote ${vote?.status} ${vote?.code ?? ''}`),
  );
  if (closeError) lines.push(`close error: ${closeError}`);

  const checks: [string, boolean][] = [
    ['no unhandled error', unhandled === 0],
    ['no one-sided turn', oneSided === 0],
    ['stream and store agree', findings.mismatches.length === 0 && findings.unfinished.length === 0],
    ['every stream ended with turn-end within its bound', badEnds.length === 0 && streamsTooLong.length === 0],
    ['frames well-formed', protocolErrors.length === 0],
    [
      'every duel created, no 5xx, no request error',
      createFailures.length === 0 && requestErrors.length === 0 && clientStatus5xx.length === 0,
    ],
    ['votes: accepted when complete, refused when failed', wrongVotes.length === 0],
    [`peak RSS under ${maxRssMb} MB`, peakRssBytes < rssLimitBytes],
    [
      `live heap back within ${maxHeapGrowthMb} MB of the warm-up once the duels ended (no leak)`,
      heapGrowthBytes < maxHeapGrowthMb * 1024 * 1024,
    ],
    ['the arena closed', closeError === undefined],
  ];
  lines.push('checks:');
  return printChecks('load-arena', lines, checks);
}

runScript('load-arena', main);
