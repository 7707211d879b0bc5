/**
 * `npm run load -- [--store sqlite|postgres] [--duels 500] [--seed N] [--timeout-s 420]`: a bounded
 * load run on loopback. It starts the fake upstream and a real arena in this process (as the tests
 * do, packages/server/test/test-arena.ts), then plays N duels at once, each as a visitor of its own
 * (its own cookie), streaming at 20–50 tokens a second, with about 10 % of the upstream calls failing
 * in the fake's ways (HTTP 500, 429 and 503, a cut stream, a malformed chunk, a stream that never
 * ends). It checks that:
 *  - nothing is logged at level error or above, and no rejection or exception goes unhandled;
 *  - no turn is one-sided: a turn whose last frame says `complete` has both sides complete, in the
 *    stream (a `side-end` for each) and in the store (`turn_sides`), with the streamed texts stored;
 *    any other turn ends with `turn-error` then `turn-end failed`, and is stored failed;
 *  - every stream closes within a bound, and the whole run within `--timeout-s`;
 *  - the peak RSS of the process stays under `--max-rss-mb` (600 by default).
 * It prints a summary and exits 1 when a check fails (2 on a usage error).
 *
 * PostgreSQL: `export TEST_DATABASE_URL=$(bash scripts/postgres.sh)` first; a fresh database is
 * created for the run and dropped afterwards.
 */
import { Writable } from 'node:stream';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { type StreamEvent, readStreamFrames } from '@agora/contract';
import { parseCatalogue } from '../packages/server/src/config/catalogue';
import type { FakeBehaviour } from '../packages/server/test/fake-upstream/fake-upstream';
import { ArenaClient, type TestArena, startTestArena } from '../packages/server/test/test-arena';
import { DIALECTS } from '../packages/server/test/test-db';

// ---------------------------------------------------------------------------------------------
// Options

const { values: args } = parseArgs({
  options: {
    store: { type: 'string', default: 'sqlite' },
    duels: { type: 'string', default: '500' },
    seed: { type: 'string', default: '1' },
    'timeout-s': { type: 'string', default: '420' },
    'ramp-ms': { type: 'string', default: '2000' },
    'failure-rate': { type: 'string', default: '0.1' },
    'follow-up-rate': { type: 'string', default: '0.25' },
    'max-rss-mb': { type: 'string', default: '600' },
    'first-token-timeout-ms': { type: 'string', default: '10000' },
    'total-timeout-ms': { type: 'string', default: '30000' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

function usage(message?: string): never {
  if (message) process.stderr.write(`load-arena: ${message}\n`);
  process.stderr.write(
    'usage: node --import tsx scripts/load-arena.ts [--store sqlite|postgres] [--duels 500] [--seed 1] [--timeout-s 420]\n' +
      '       [--ramp-ms 2000] [--failure-rate 0.1] [--follow-up-rate 0.25] [--max-rss-mb 600]\n' +
      '       [--first-token-timeout-ms 10000] [--total-timeout-ms 30000]\n',
  );
  process.exit(message ? 2 : 0);
}
if (args.help) usage();

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

const dialect = DIALECTS.find((candidate) => candidate.name === storeName);
if (!dialect) usage('--store postgres needs TEST_DATABASE_URL: export TEST_DATABASE_URL=$(bash scripts/postgres.sh)');

// ---------------------------------------------------------------------------------------------
// Seeded randomness (mulberry32): the same seed plays the same duels with the same catalogue.

function seededRandom(start: number): () => number {
  let state = start >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
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
      text: answerText(60 + Math.floor(random() * 100)),
      tokensPerSecond,
      firstTokenDelayMs: 100 + Math.floor(random() * 600),
      ...(reasoning ? { reasoning: answerText(15 + Math.floor(random() * 15)) } : {}),
      ...(index % 4 === 0 ? { noUsage: true } : {}),
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
      if (parsed.msg === 'upstream call failed') {
        const upstream = parsed.upstream as { kind?: string; statusCode?: number } | undefined;
        const key = `${upstream?.kind ?? '?'}${upstream?.statusCode ? ` ${upstream.statusCode}` : ''}`;
        upstreamFailureKinds.set(key, (upstreamFailureKinds.get(key) ?? 0) + 1);
      }
    }
    done();
  },
});

const processErrors: string[] = [];
process.on('unhandledRejection', (reason) => processErrors.push(`unhandledRejection: ${describeError(reason)}`));
process.on('uncaughtException', (error) => processErrors.push(`uncaughtException: ${describeError(error)}`));
process.on('warning', (warning) => processErrors.push(`warning: ${warning.name}: ${warning.message}`));

function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}

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
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

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
}

interface DuelSeen {
  index: number;
  id?: string;
  mode: string;
  createStatus?: number;
  createError?: string;
  turns: TurnSeen[];
  vote?: { status: number; code?: string };
  requestErrors: string[];
  endedAt?: number;
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
    const response = await fetch(`${client.baseUrl}/api/v1/duels/${duelId}/stream?turn=${turn}`, {
      headers: client.visitorCookie ? { cookie: client.visitorCookie } : {},
      signal: controller.signal,
    });
    if (response.status !== 200 || !response.body) {
      seen.end = 'http-error';
      seen.detail = `${response.status} ${await response.text()}`;
      return seen;
    }
    let ended: StreamEvent | undefined;
    for await (const frame of readStreamFrames(response.body)) {
      seen.frames += 1;
      const event = frame.event;
      if (frame.id !== String(seen.frames)) seen.protocolErrors.push(`frame ${seen.frames} has id ${frame.id}`);
      if (ended) seen.protocolErrors.push(`${event.type} after turn-end`);
      if (seen.frames === 1 && event.type !== 'turn-start') seen.protocolErrors.push(`first frame is ${event.type}`);
      switch (event.type) {
        case 'turn-start':
          if (seen.frames !== 1) seen.protocolErrors.push('turn-start not first');
          if (event.turn !== turn) seen.protocolErrors.push(`turn-start of turn ${event.turn}`);
          break;
        case 'text-delta':
          if (seen.sideEnds[event.side] > 0) seen.protocolErrors.push(`text-delta of side ${event.side} after its side-end`);
          seen.text[event.side] += event.text;
          break;
        case 'reasoning-delta':
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

const errorCode = (json: unknown): string | undefined =>
  typeof json === 'object' && json !== null && 'error' in json
    ? String((json as { error: { code?: unknown } }).error.code ?? '')
    : undefined;

async function playDuel(index: number, baseUrl: string, seen: DuelSeen, plan: { delayMs: number; followUp: boolean }) {
  await new Promise((resolve) => setTimeout(resolve, plan.delayMs));
  const client = new ArenaClient(baseUrl);
  const prompt = `${PROMPTS[index % PROMPTS.length]} (#${index})`;
  const created = await call(client, seen, 'POST', '/api/v1/duels', {
    prompt,
    mode: seen.mode,
    locale: index % 2 === 0 ? 'fr' : 'en-GB',
  });
  seen.createStatus = created?.status;
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
  return { findings, totals };
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
    printProgress();
    process.exit(1);
  }, overallTimeoutMs);
  const models = buildModels();
  const failing = models.filter((model) => model.failure).length;
  process.stdout.write(
    `load-arena: store ${storeName}, ${duelCount} duels, seed ${seed}, ${models.length} models (${failing} always failing: ${(
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
    AGORA_MAX_CONNECTIONS_PER_CLIENT: '5000',
    AGORA_RETRIES: String(upstreamRetries),
    // Votes arrive within seconds of the stream's end: the integrity rules would flag them, which is not the point here.
    AGORA_INTEGRITY_MIN_VOTE_S: '0',
  };
  const logger = pino({ level: 'info' }, sink);
  const harness = await startTestArena(dialect!, {
    environment,
    logger,
    catalogue: (fakeBaseUrl) => parseCatalogue(catalogueYaml(models, fakeBaseUrl), 'load-models.yaml', environment),
  });
  for (const model of models) harness.fake.behave(model.upstream, model.behaviour);

  const duels: DuelSeen[] = Array.from({ length: duelCount }, (_, index) => ({
    index,
    mode: MODES[index % MODES.length]!,
    turns: [],
    requestErrors: [],
  }));
  const plans = duels.map(() => ({ delayMs: random() * rampMs, followUp: random() < followUpRate }));

  const memoryTimer = setInterval(sampleMemory, 100);
  loopDelay.enable();
  const progressTimer = setInterval(printProgress, 10_000);
  let finished = 0;
  function printProgress() {
    const streaming = duels.filter((duel) => duel.id && duel.endedAt === undefined).length;
    process.stdout.write(
      `  … ${((performance.now() - runStarted) / 1000).toFixed(0)} s: ${finished}/${duelCount} duels done, ${streaming} in flight, ` +
        `rss ${mb(process.memoryUsage().rss)} (peak ${mb(peakRssBytes)}), upstream requests ${harness.fake.requests.length}\n`,
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

  // Every turn stored (the arena's own drain), then the store against what the visitors saw.
  await withTimeout(harness.arena.duels.drain(), 60_000, 'drain');
  const { findings, totals } = await checkStore(harness, duels);
  clearInterval(memoryTimer);
  loopDelay.disable();

  const fakeRequests = harness.fake.requests;
  const failingUpstreams = new Set(models.filter((model) => model.failure).map((model) => model.upstream));
  const injected = fakeRequests.filter((request) => failingUpstreams.has(request.model)).length;
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
  const closeMs = performance.now() - closeStarted;
  clearTimeout(hardStop);

  const lines = [
    '',
    `== load-arena summary (store ${storeName}, seed ${seed}) ==`,
    `duels                     ${duelCount} (created ${duelCount - createFailures.length}, follow-up turns ${duels.filter((duel) => duel.turns.length > 1).length})`,
    `completed duels           ${completedDuels}`,
    `failed duels              ${failedDuels}`,
    `turns stored              ${totals.turns} (complete ${totals.completeTurns}, failed ${totals.failedTurns})`,
    `upstream requests         ${fakeRequests.length} (to always-failing models: ${injected}, ${((100 * injected) / Math.max(1, fakeRequests.length)).toFixed(1)} %)`,
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
    `peak RSS                  ${mb(peakRssBytes)} sampled (kernel maxRSS ${mb(maxRssKernelBytes)}), limit ${maxRssMb} MB; peak heap used ${mb(peakHeapBytes)}`,
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
    ['the arena closed', closeError === undefined],
  ];
  lines.push('checks:');
  for (const [name, ok] of checks) lines.push(`  ${ok ? 'ok  ' : 'FAIL'} ${name}`);
  const failed = checks.filter(([, ok]) => !ok).length;
  lines.push(failed === 0 ? 'load-arena: all checks passed' : `load-arena: ${failed} check(s) FAILED`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`load-arena: ${describeError(error)}\n`);
    process.exit(1);
  },
);
