/**
 * `npm run fuzz -- [--store sqlite|postgres] [--requests 10000] [--seed N] [--concurrency 16] [--slow 24]`:
 * a seeded fuzzer of the HTTP API (docs/api.md) against a real arena over real HTTP on loopback
 * (packages/server/test/test-arena.ts, with the fake upstream behind it). Every request is written
 * byte by byte on a raw `node:net` socket, so that it can carry what fetch refuses to send: NUL and
 * control characters, lone surrogates and invalid UTF-8 in bodies, header values and URLs, huge and
 * lying bodies, bodies that trickle and stop, path tricks, bad Last-Event-ID values, other
 * visitors' duels, the admin API with and without its token.
 *
 * The checks: no 5xx at all, nothing logged at level error or above, no request left without an
 * answer, every 4xx the application answers has the error body `{"error":{"code","message"}}`, and
 * another visitor's duel answers as if it did not exist. Node's own HTTP parser answers some broken
 * requests before the application sees them (400, 408, 413, 431 without a body): those are counted
 * apart and do not fail the run. It prints a table of statuses and the first offending cases in
 * full, and exits 1 on any failed check (2 on a usage error). The same seed sends the same requests.
 *
 * PostgreSQL: `export TEST_DATABASE_URL=$(bash scripts/postgres.sh)` first; a fresh database is
 * created for the run and dropped afterwards.
 */
import { connect } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { errorBodySchema } from '@agora/contract';
import { parseCatalogue } from '../packages/server/src/config/catalogue';
import { ArenaClient, TEST_MODELS, type TestArena, startTestArena, testCatalogueYaml } from '../packages/server/test/test-arena';
import { DIALECTS } from '../packages/server/test/test-db';
import { describeError, printChecks, runScript } from './script-checks';
import { seededRandom } from '../packages/server/test/seeded-random';

// ---------------------------------------------------------------------------------------------
// Options

const { values: args } = parseArgs({
  options: {
    store: { type: 'string', default: 'sqlite' },
    requests: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '16' },
    slow: { type: 'string', default: '24' },
    'timeout-s': { type: 'string', default: '600' },
    show: { type: 'string', default: '5' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

function usage(message?: string): never {
  if (message) process.stderr.write(`fuzz-api: ${message}\n`);
  process.stderr.write(
    'usage: node --import tsx scripts/fuzz-api.ts [--store sqlite|postgres] [--requests 10000] [--seed 1]\n' +
      '       [--concurrency 16] [--slow 24] [--timeout-s 600] [--show 5]\n',
  );
  process.exit(message ? 2 : 0);
}
if (args.help) usage();

function numberOption(name: keyof typeof args, min: number, max: number): number {
  const value = Number(args[name]);
  if (!Number.isFinite(value) || value < min || value > max) usage(`--${name} must be a number in [${min}, ${max}]`);
  return Math.floor(value);
}

const storeName = args.store;
if (storeName !== 'sqlite' && storeName !== 'postgres') usage('--store must be sqlite or postgres');
const requestCount = numberOption('requests', 1, 1_000_000);
const seed = numberOption('seed', 0, 2 ** 32 - 1);
const concurrency = numberOption('concurrency', 1, 200);
const slowBudget = numberOption('slow', 0, 200);
const overallTimeoutMs = numberOption('timeout-s', 10, 3600) * 1000;
const showCount = numberOption('show', 0, 1000);
const dialect = DIALECTS.find((candidate) => candidate.name === storeName);
if (!dialect) usage('--store postgres needs TEST_DATABASE_URL: export TEST_DATABASE_URL=$(bash scripts/postgres.sh)');

/** The arena's settings for the run: known limits, so that the fuzzer can aim just past them. */
const ADMIN_TOKEN = 'fuzz-admin-token-0123456789abcdef';
const MAX_PROMPT_CHARS = 2000;
/** The body limit of app.ts: JSON escapes can multiply a prompt by 6, plus 64 KiB. */
const BODY_LIMIT = MAX_PROMPT_CHARS * 6 + 64 * 1024;
const REQUEST_TIMEOUT_S = 2;
/** How long the fuzzer waits for an answer before it calls the request a hang. */
const ANSWER_TIMEOUT_MS = (REQUEST_TIMEOUT_S + 8) * 1000;
/** A live stream is followed this long, then dropped (a visitor who leaves). */
const STREAM_FOLLOW_MS = 1500;
const ENVIRONMENT: Record<string, string> = {
  AGORA_ADMIN_TOKEN: ADMIN_TOKEN,
  AGORA_MAX_PROMPT_CHARS: String(MAX_PROMPT_CHARS),
  AGORA_REQUEST_TIMEOUT_S: String(REQUEST_TIMEOUT_S),
  AGORA_MAX_TURNS: '3',
  // Per-visitor limits stay on (so that 429 is fuzzed too), per-address limits are off: every
  // request comes from 127.0.0.1, and requests without a cookie are a new visitor each.
  AGORA_LIMIT_PROMPTS_PER_HOUR: '40',
  AGORA_LIMIT_PROMPTS_PER_HOUR_PER_ADDRESS: '0',
  AGORA_LIMIT_VOTES_PER_MINUTE: '20',
  AGORA_LIMIT_VOTES_PER_MINUTE_PER_ADDRESS: '0',
  AGORA_LIMIT_REPORTS_PER_HOUR: '10',
  AGORA_LIMIT_REPORTS_PER_HOUR_PER_ADDRESS: '0',
  AGORA_LIMIT_REACTIONS_PER_MINUTE: '60',
  AGORA_LIMIT_REACTIONS_PER_MINUTE_PER_ADDRESS: '0',
  AGORA_LIMIT_READS_PER_MINUTE_PER_ADDRESS: '0',
  AGORA_LIMIT_CHALLENGES_PER_MINUTE_PER_ADDRESS: '0',
  AGORA_LIMIT_FILES_PER_MINUTE_PER_ADDRESS: '0',
  AGORA_MAX_CONNECTIONS_PER_CLIENT: '1000',
};

// ---------------------------------------------------------------------------------------------
// Seeded randomness (mulberry32): case i depends on the seed and i only.

class Dice {
  constructor(readonly next: () => number) {}
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

// ---------------------------------------------------------------------------------------------
// Hostile values

/** Raw byte sequences that are not UTF-8: lone continuation, truncated, overlong, a surrogate in CESU-8, past U+10FFFF, 0xFE/0xFF. */
const INVALID_UTF8: readonly Buffer[] = [
  Buffer.from([0x80]),
  Buffer.from([0xc3]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xe0, 0x80, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0xfe, 0xff]),
  Buffer.from([0xff]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xf0, 0x9f, 0x98]),
];

/** Strings that JSON can carry and that typed text must refuse or survive. */
const HOSTILE_TEXT: readonly string[] = [
  'a\u0000b',
  '\u0000',
  'x\u0001\u0002\u0003',
  '\u001b[31mred\u001b[0m',
  'del\u007f',
  'c1\u0085\u009b',
  'lone \ud800 high',
  'lone \udfff low',
  'reversed \udc00\ud800',
  '\ud83d',
  '\u200b\u200d\u2060',
  '   ',
  '',
  'tab\tand\nnew\r\nlines',
  '\u202egnp.exe',
  'ＡＢＣ 日本語 عربى 😀👩‍👩‍👧',
  'e\u0301\u0301\u0301\u0301',
  "'; DROP TABLE duels; --",
  '%00%2e%2e%2f',
  '{{7*7}}${7*7}<script>alert(1)</script>',
  '\\u0000',
  '\ufeffbom',
  '\uffff\ufffe',
];

/** A marker replaced by raw bytes once the body is serialised: `@@RAW<n>@@`. */
const rawMarker = (index: number) => `@@RAW${index}@@`;

function hostileText(dice: Dice, maxChars: number): string {
  switch (dice.int(6)) {
    case 0:
      return dice.pick(HOSTILE_TEXT);
    case 1:
      return `Bonjour ${dice.pick(HOSTILE_TEXT)} !`;
    case 2:
      return `raw ${rawMarker(dice.int(INVALID_UTF8.length))} bytes`;
    case 3:
      return 'x'.repeat(maxChars + 1 + dice.int(3));
    case 4:
      return `${'é'.repeat(Math.max(1, maxChars - 1))}${dice.pick(['😀', 'a', '\ud800'])}`;
    default:
      return String.fromCharCode(...Array.from({ length: 1 + dice.int(12) }, () => dice.int(0x10000)));
  }
}

/** Integers at the edges: PostgreSQL's integer columns end at 2^31 - 1, zod's int() at 2^53 - 1. */
const NUMERIC_EDGES: readonly string[] = [
  '0',
  '-1',
  '1.5',
  '2147483647',
  '2147483648',
  '4294967296',
  '9007199254740991',
  '9007199254740993',
  '1e21',
  '1e309',
  '0x10',
  ' 1',
  '+1',
  '1_000',
  '٣',
];

/** A value of the wrong type for any field. */
function wrongType(dice: Dice): unknown {
  return dice.pick<unknown>([
    null,
    true,
    0,
    -1,
    1.5,
    1e308,
    -0,
    Number.MAX_SAFE_INTEGER,
    2147483648,
    Number.MAX_SAFE_INTEGER + 1,
    [],
    ['a'],
    {},
    { $gt: '' },
    '1',
    'true',
    'null',
    [[[[[]]]]],
  ]);
}

// ---------------------------------------------------------------------------------------------
// Raw HTTP

type HeaderValue = string | Buffer;

interface RawRequest {
  method: string;
  target: HeaderValue;
  headers: [string, HeaderValue][];
  body?: Buffer;
  /** How the body is framed: its length (default), chunked, a lie, or no framing at all. */
  framing?: 'length' | 'chunked' | 'short-length' | 'long-length' | 'none' | 'both';
  /** Sent as is after the request: another request on the same connection. */
  trailer?: Buffer;
  version?: string;
  /** Trickle: send this many bytes of the request, slowly, then stop (the server must time it out). */
  trickle?: { bytes: number; everyMs: number; then: 'wait' | 'close' };
  /** A live stream: follow it for a while, then leave. */
  stream?: boolean;
}

function serialize(request: RawRequest): Buffer {
  const parts: Buffer[] = [];
  const latin = (text: string) => Buffer.from(text, 'latin1');
  const bytes = (value: HeaderValue) => (typeof value === 'string' ? Buffer.from(value, 'utf8') : value);
  parts.push(latin(`${request.method} `), bytes(request.target), latin(` ${request.version ?? 'HTTP/1.1'}\r\n`));
  for (const [name, value] of request.headers) parts.push(latin(`${name}: `), bytes(value), latin('\r\n'));
  const body = request.body;
  const framing = request.framing ?? 'length';
  if (body !== undefined) {
    if (framing === 'length' || framing === 'both') parts.push(latin(`Content-Length: ${body.length}\r\n`));
    if (framing === 'short-length') parts.push(latin(`Content-Length: ${Math.max(0, body.length - 3)}\r\n`));
    if (framing === 'long-length') parts.push(latin(`Content-Length: ${body.length + 10}\r\n`));
    if (framing === 'chunked' || framing === 'both') parts.push(latin('Transfer-Encoding: chunked\r\n'));
  }
  parts.push(latin('\r\n'));
  if (body !== undefined) {
    if (framing === 'chunked' || framing === 'both') {
      for (let offset = 0; offset < body.length; offset += 65536) {
        const piece = body.subarray(offset, offset + 65536);
        parts.push(latin(`${piece.length.toString(16)}\r\n`), piece, latin('\r\n'));
      }
      parts.push(latin('0\r\n\r\n'));
    } else parts.push(body);
  }
  if (request.trailer) parts.push(request.trailer);
  return Buffer.concat(parts);
}

interface RawResponse {
  /** 0: no status line came back. */
  status: number;
  headers: Map<string, string>;
  body: string;
  /** The bytes received, as text (for the report). */
  raw: string;
  /** What ended the exchange: the server closed, the server reset, our timeout, or we left a live stream. */
  ending: 'closed' | 'reset' | 'timeout' | 'left-stream' | 'client-left' | 'error';
  error?: string;
  ms: number;
}

function parseResponse(all: Buffer): Pick<RawResponse, 'status' | 'headers' | 'body'> {
  // Interim answers (100 Continue) come before the answer.
  let received = all;
  while (/^HTTP\/1\.[01] 1\d\d /.test(received.subarray(0, 16).toString('latin1')) && received.indexOf('\r\n\r\n') >= 0)
    received = received.subarray(received.indexOf('\r\n\r\n') + 4);
  const headerEnd = received.indexOf('\r\n\r\n');
  const head = (headerEnd < 0 ? received : received.subarray(0, headerEnd)).toString('latin1');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  let body = headerEnd < 0 ? Buffer.alloc(0) : received.subarray(headerEnd + 4);
  if (headers.get('transfer-encoding')?.toLowerCase() === 'chunked') body = dechunk(body);
  else if (headers.has('content-length')) body = body.subarray(0, Number(headers.get('content-length')));
  return { status: match ? Number(match[1]) : 0, headers, body: body.toString('utf8') };
}

function dechunk(data: Buffer): Buffer {
  const pieces: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    pieces.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(pieces);
}

/** Sends one request on a connection of its own and reads the answer until the server closes. */
function exchange(port: number, request: RawRequest): Promise<RawResponse> {
  const started = performance.now();
  const bytes = serialize(request);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    let streamTimer: NodeJS.Timeout | undefined;
    let trickleTimer: NodeJS.Timeout | undefined;
    const socket = connect(port, '127.0.0.1');
    const finish = (ending: RawResponse['ending'], error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(answerTimer);
      clearTimeout(streamTimer);
      clearInterval(trickleTimer);
      socket.destroy();
      const received = Buffer.concat(chunks);
      resolve({ ...parseResponse(received), raw: received.toString('latin1'), ending, error, ms: performance.now() - started });
    };
    const answerTimer = setTimeout(() => finish('timeout'), ANSWER_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (request.stream && !streamTimer && Buffer.concat(chunks).includes('\r\n\r\n'))
        streamTimer = setTimeout(() => finish('left-stream'), STREAM_FOLLOW_MS);
    });
    socket.on('end', () => finish('closed'));
    socket.on('close', () => finish('closed'));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(error.code === 'ECONNRESET' || error.code === 'EPIPE' ? 'reset' : 'error', `${error.code ?? ''} ${error.message}`),
    );
    socket.on('connect', () => {
      const trickle = request.trickle;
      if (!trickle) {
        socket.write(bytes);
        return;
      }
      let sent = 0;
      trickleTimer = setInterval(() => {
        if (sent >= trickle.bytes || sent >= bytes.length) {
          clearInterval(trickleTimer);
          if (trickle.then === 'close') finish('client-left');
          return;
        }
        socket.write(bytes.subarray(sent, sent + 1));
        sent += 1;
      }, trickle.everyMs);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The state the fuzzer plays with: visitors and their duels.

interface Visitor {
  name: string;
  cookie: string;
  duels: { ready: string[]; voted: string[]; failed: string[]; live: string[]; any: string[] };
}

const FAILING_MODEL = TEST_MODELS[0];
const SLOW_MODEL = TEST_MODELS[5];

async function seedVisitors(harness: TestArena, count: number): Promise<Visitor[]> {
  const visitors: Visitor[] = [];
  for (let index = 0; index < count; index += 1) {
    const client = new ArenaClient(harness.baseUrl);
    const duels: Visitor['duels'] = { ready: [], voted: [], failed: [], live: [], any: [] };
    const create = async (body: Record<string, unknown>) => {
      const created = await client.request('POST', '/api/v1/duels', body);
      if (created.status !== 201) throw new Error(`seed duel answered ${created.status}: ${JSON.stringify(created.json)}`);
      const id = (created.json as { id: string }).id;
      duels.any.push(id);
      return id;
    };
    const fine = { mode: 'custom', models: [TEST_MODELS[2].id, TEST_MODELS[3].id] };
    for (let ready = 0; ready < 3; ready += 1) {
      const id = await create({ prompt: `Bonjour ${index}.${ready}`, ...fine });
      await client.stream(id);
      duels.ready.push(id);
    }
    const twoTurns = await create({ prompt: `Deux tours ${index}`, ...fine });
    await client.stream(twoTurns);
    await client.request('POST', `/api/v1/duels/${twoTurns}/messages`, { prompt: 'Et ensuite ?' });
    await client.stream(twoTurns, { turn: 2 });
    duels.ready.push(twoTurns);
    const voted = await create({ prompt: `Vote ${index}`, ...fine });
    await client.stream(voted);
    await client.request('POST', `/api/v1/duels/${voted}/vote`, { choice: 'a' });
    duels.voted.push(voted);
    await client.request('POST', `/api/v1/duels/${voted}/report`, { reason: 'seeded report' });
    const failed = await create({ prompt: `Échec ${index}`, mode: 'custom', models: [FAILING_MODEL.id, TEST_MODELS[3].id] });
    await client.stream(failed);
    duels.failed.push(failed);
    duels.live.push(await create({ prompt: `Lent ${index}`, mode: 'custom', models: [SLOW_MODEL.id, TEST_MODELS[2].id] }));
    visitors.push({ name: `visitor${index}`, cookie: client.visitorCookie!, duels });
  }
  return visitors;
}

// ---------------------------------------------------------------------------------------------
// Cases

interface Case {
  index: number;
  /** The endpoint family, for the table. */
  group: string;
  /** What was done to the request. */
  mutation: string;
  request: RawRequest;
  /** A rule of this case beyond the general ones: returns a problem, or undefined. */
  expect?: (response: RawResponse) => string | undefined;
}

interface Context {
  port: number;
  visitors: Visitor[];
  modelIds: string[];
}

const REQUEST_ID_PREFIX = 'fuzz-';

function jsonBody(value: unknown): Buffer {
  let text = JSON.stringify(value) ?? 'null';
  const parts: Buffer[] = [];
  let match: RegExpExecArray | null;
  const marker = /@@RAW(\d+)@@/g;
  let last = 0;
  while ((match = marker.exec(text)) !== null) {
    parts.push(Buffer.from(text.slice(last, match.index), 'utf8'), INVALID_UTF8[Number(match[1])]!);
    last = match.index + match[0].length;
  }
  if (parts.length === 0) return Buffer.from(text, 'utf8');
  text = text.slice(last);
  parts.push(Buffer.from(text, 'utf8'));
  return Buffer.concat(parts);
}

/** Broken JSON texts, from near misses to abuse. */
function brokenJson(dice: Dice, valid: string): Buffer {
  const options: (() => Buffer | string)[] = [
    () => valid.slice(0, Math.max(1, dice.int(valid.length))),
    () => `${valid},`,
    () => `${valid}${valid}`,
    () => valid.replace(/"/g, "'"),
    () => valid.replace(/:/, ': NaN, "x":'),
    () => `/* comment */ ${valid}`,
    () => `\ufeff${valid}`,
    () => '',
    () => 'null',
    () => '[]',
    () => '"just a string"',
    () => '12345678901234567890123456789',
    () => '{"prompt": "a", "prompt": "b"}',
    () => '{"__proto__": {"polluted": true}, "prompt": "x"}',
    () => '{"constructor": {"prototype": {"x": 1}}}',
    () => `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
    () => `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
    () => '{"prompt": "raw control \u0001 char in a JSON string"}',
    () => '{"prompt": "\\ud800"}',
    () => '{"prompt": "\\u0000"}',
    () => '{"prompt": "\\x41"}',
    () => `{"prompt": "${'\\u0000'.repeat(1000)}"}`,
    () => Buffer.concat([Buffer.from('{"prompt": "'), dice.pick(INVALID_UTF8), Buffer.from('"}')]),
    () => Buffer.concat([dice.pick(INVALID_UTF8), Buffer.from(valid)]),
    () => Buffer.from(valid, 'utf16le'),
    () => Buffer.from([0x00, 0x00, 0x00, 0x7b]),
    () => 'prompt=hello&mode=random',
  ];
  const made = dice.pick(options)();
  return typeof made === 'string' ? Buffer.from(made, 'utf8') : made;
}

/** Ids for the `{id}` of a path: real ones and abuse. */
function duelIdFor(dice: Dice, context: Context, visitor: Visitor | undefined): { id: HeaderValue; kind: string } {
  const own = visitor?.duels;
  const pool = own && own.any.length > 0 ? own : undefined;
  switch (dice.int(14)) {
    case 0:
    case 1:
    case 2:
      if (pool) {
        const kind = dice.pick(['ready', 'voted', 'failed', 'live', 'any'] as const);
        const ids = pool[kind].length > 0 ? pool[kind] : pool.any;
        return { id: dice.pick(ids), kind: `own-${kind}` };
      }
      return { id: 'AAAAAAAAAAAAAAAAAAAAAA', kind: 'unknown' };
    case 3:
    case 4: {
      const others = context.visitors.filter((candidate) => candidate !== visitor);
      const other = dice.pick(others);
      const kind = dice.pick(['ready', 'voted', 'failed', 'live'] as const);
      return { id: dice.pick(other.duels[kind].length > 0 ? other.duels[kind] : other.duels.any), kind: `others-${kind}` };
    }
    case 5:
      return {
        id: Buffer.from(
          Array.from({ length: 22 }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[dice.int(64)]!).join(''),
        ),
        kind: 'unknown',
      };
    case 6:
      return {
        id: dice.pick([
          '..',
          '%2e%2e',
          '..%2f..%2fadmin%2freview',
          '%2e%2e%2f%2e%2e%2fhealthz',
          '%252e%252e',
          '..;',
          '.',
          '%00',
          'AAAAAAAAAAAAAAAAAAAAAA%00',
          '%00AAAAAAAAAAAAAAAAAAAAAA',
          'AAAAAAAAAA%2FAAAAAAAAAAA',
          '%ff%fe%fd',
          '%c0%ae%c0%ae',
          '%e2%80%ae',
          'AAAAAAAAAAAAAAAAAAAAAA%20',
          'AAAAAAAAAAAAAAAAAAAAAA;x=1',
          '%',
          '%%%',
          '%zz',
          'ÄÖÜäöüß',
          encodeURIComponent('é'.repeat(30)),
        ]),
        kind: 'path-trick',
      };
    case 7:
      return { id: 'A'.repeat(dice.pick([9, 65, 200, 1000, 10_000, 20_000])), kind: 'long-id' };
    case 8:
      return { id: Buffer.concat([Buffer.from('AAAAAAAAAA'), dice.pick(INVALID_UTF8), Buffer.from('AAAA')]), kind: 'raw-bytes-id' };
    case 9:
      return {
        id: Buffer.from([0x41, 0x41, dice.pick([0x00, 0x01, 0x7f, 0x09, 0x0b, 0x20, 0x22, 0x3c, 0x5c, 0x7b]), 0x41]),
        kind: 'control-byte-id',
      };
    default:
      if (pool) return { id: dice.pick(pool.any), kind: 'own-any' };
      return { id: 'BBBBBBBBBBBBBBBBBBBBBB', kind: 'unknown' };
  }
}

function cookieFor(dice: Dice, visitor: Visitor | undefined): { header?: HeaderValue; kind: string } {
  if (!visitor) {
    switch (dice.int(10)) {
      case 0:
        return { header: 'agora_visitor=', kind: 'empty-cookie' };
      case 1:
        return { header: `agora_visitor=${'A'.repeat(21)}!`, kind: 'bad-cookie' };
      case 2:
        return { header: Buffer.concat([Buffer.from('agora_visitor='), dice.pick(INVALID_UTF8)]), kind: 'raw-bytes-cookie' };
      case 3:
        return { header: `agora_visitor=${'A'.repeat(22)}; agora_visitor=${'B'.repeat(22)}`, kind: 'two-cookies' };
      case 4:
        return { header: `x=${'y'.repeat(dice.pick([4000, 9000, 20_000]))}`, kind: 'huge-cookie' };
      case 5:
        return { header: 'agora_visitor="AAAAAAAAAAAAAAAAAAAAAA"', kind: 'quoted-cookie' };
      default:
        return { kind: 'no-cookie' };
    }
  }
  return { header: visitor.cookie, kind: 'cookie' };
}

const ENDPOINTS = [
  'models',
  'datasets',
  'create',
  'stream',
  'messages',
  'reactions',
  'vote',
  'transcript',
  'report',
  'leaderboard',
  'history',
  'healthz',
  'metrics',
  'openapi',
  'admin-upstream-errors',
  'admin-flagged',
  'admin-vote-review',
  'admin-review-queue',
  'admin-review-item',
  'admin-review-decide',
  'admin-review-log',
  'root',
  'unknown',
] as const;
type Endpoint = (typeof ENDPOINTS)[number];
const ENDPOINT_WEIGHTS: Record<Endpoint, number> = {
  models: 2,
  datasets: 2,
  create: 14,
  stream: 7,
  messages: 7,
  reactions: 7,
  vote: 7,
  transcript: 6,
  report: 5,
  leaderboard: 4,
  history: 3,
  healthz: 1,
  metrics: 2,
  openapi: 1,
  'admin-upstream-errors': 2,
  'admin-flagged': 2,
  'admin-vote-review': 3,
  'admin-review-queue': 3,
  'admin-review-item': 3,
  'admin-review-decide': 3,
  'admin-review-log': 2,
  root: 1,
  unknown: 3,
};
const weightTotal = Object.values(ENDPOINT_WEIGHTS).reduce((sum, weight) => sum + weight, 0);

function pickEndpoint(dice: Dice): Endpoint {
  let target = dice.next() * weightTotal;
  for (const endpoint of ENDPOINTS) {
    target -= ENDPOINT_WEIGHTS[endpoint];
    if (target < 0) return endpoint;
  }
  return 'unknown';
}

const TAGS = ['useful', 'complete', 'creative', 'clear_formatting', 'incorrect', 'superficial', 'instructions_not_followed'];

/** A valid body for each endpoint that takes one, from which mutations start. */
function validBody(endpoint: Endpoint, dice: Dice, context: Context): Record<string, unknown> | undefined {
  switch (endpoint) {
    case 'create':
      return dice.pick([
        { prompt: 'Bonjour, qui es-tu ?' },
        { prompt: 'Explain recursion briefly.', mode: 'random', locale: 'en-GB' },
        { prompt: 'Un haïku ?', mode: 'custom', models: [dice.pick(context.modelIds)] },
        { prompt: 'Compare', mode: 'custom', models: [context.modelIds[2], context.modelIds[3]] },
        { prompt: 'Small', mode: 'small-models' },
        { prompt: 'Big', mode: 'big-vs-small', locale: 'fr' },
        { prompt: 'Think', mode: 'reasoning' },
      ]);
    case 'messages':
      return { prompt: 'Et ensuite ?' };
    case 'reactions':
      return {
        side: dice.pick(['a', 'b']),
        turn: 1 + dice.int(2),
        value: dice.pick(['like', 'dislike', null]),
        tags: [dice.pick(TAGS)],
        comment: 'bien',
      };
    case 'vote':
      return { choice: dice.pick(['a', 'b', 'tie', 'both_bad']), tags: { a: [dice.pick(TAGS)] }, comments: { b: 'ok' } };
    case 'report':
      return { reason: 'personal data in the answer' };
    case 'admin-vote-review':
      return { decision: dice.pick(['count', 'exclude']), reviewer: 'alice', reason: 'checked' };
    case 'admin-review-decide':
      return { decision: dice.pick(['include', 'exclude']), reviewer: 'bob', reason: 'public figure' };
    default:
      return undefined;
  }
}

/** Mutates one field of a valid body: hostile text, a wrong type, removal, an unknown field, or deep in a nested value. */
function mutateBody(body: Record<string, unknown>, dice: Dice): { body: Record<string, unknown>; what: string } {
  const copy: Record<string, unknown> = structuredClone(body);
  const keys = Object.keys(copy);
  switch (dice.int(6)) {
    case 0:
    case 1: {
      const key = dice.pick(keys);
      const value = copy[key];
      if (Array.isArray(value)) copy[key] = [hostileText(dice, 300)];
      else if (typeof value === 'object' && value !== null) {
        const inner = Object.keys(value)[0] ?? 'a';
        copy[key] = { ...value, [inner]: dice.chance(0.5) ? hostileText(dice, 4000) : [hostileText(dice, 50)] };
      } else copy[key] = hostileText(dice, key === 'prompt' ? MAX_PROMPT_CHARS : key === 'reason' ? 2000 : key === 'comment' ? 4000 : 100);
      return { body: copy, what: `hostile ${key}` };
    }
    case 2: {
      const key = dice.pick(keys);
      copy[key] = key === 'turn' && dice.chance(0.6) ? Number(dice.pick(NUMERIC_EDGES)) : wrongType(dice);
      return { body: copy, what: `wrong type ${key}` };
    }
    case 3: {
      const key = dice.pick(keys);
      delete copy[key];
      return { body: copy, what: `missing ${key}` };
    }
    case 4:
      copy[dice.pick(['temperature', 'model', 'admin', 'visitor', 'id', '__proto__', 'PROMPT', 'prompt '])] = dice.pick<unknown>([
        1,
        'x',
        true,
        {},
      ]);
      return { body: copy, what: 'unknown field' };
    default: {
      // Text fields that are not typed text (reviewer, reason of the admin API) and enums, with NUL and raw bytes.
      const key = dice.pick(keys);
      copy[key] = dice.pick([
        'a\u0000b',
        `x${rawMarker(dice.int(INVALID_UTF8.length))}`,
        '\ud800',
        'A'.repeat(5000),
        ' ',
        'LIKE',
        'a'.repeat(101),
      ]);
      return { body: copy, what: `nul/raw/long ${key}` };
    }
  }
}

/** Query strings for the GET endpoints that read one. */
function queryFor(endpoint: Endpoint, dice: Dice, context: Context): { query: HeaderValue; what: string } {
  const valid: Partial<Record<Endpoint, string[]>> = {
    leaderboard: ['', '?style=plain', '?style=controlled&language=fr', '?mode=reasoning&category=Sports', '?language=en&mode=random'],
    history: [`?model=${context.modelIds[0]}`, `?model=${context.modelIds[1]}&style=controlled&limit=5`],
    stream: ['', '?turn=1', '?turn=2'],
    'admin-upstream-errors': ['', '?hours=1', '?hours=8784'],
    'admin-flagged': ['', '?limit=1', '?limit=1000'],
    'admin-review-queue': ['', '?queue=flagged', '?queue=reported&limit=2', '?queue=failed', '?queue=excluded&limit=500'],
    'admin-review-log': ['', '?limit=5', '?duel_id=AAAAAAAAAAAAAAAAAAAAAA'],
  };
  const names: Partial<Record<Endpoint, string[]>> = {
    leaderboard: ['style', 'language', 'category', 'mode'],
    history: ['model', 'style', 'limit'],
    stream: ['turn'],
    'admin-upstream-errors': ['hours'],
    'admin-flagged': ['limit'],
    'admin-review-queue': ['queue', 'limit', 'cursor'],
    'admin-review-log': ['limit', 'duel_id'],
  };
  const choices = valid[endpoint] ?? [''];
  if (dice.chance(0.35)) return { query: dice.pick(choices), what: 'valid query' };
  const name = dice.pick(names[endpoint] ?? ['x']);
  if (['turn', 'limit', 'hours'].includes(name) && dice.chance(0.5))
    return { query: `?${name}=${encodeURIComponent(dice.pick(NUMERIC_EDGES))}`, what: `query ${name} edge` };
  const values: HeaderValue[] = [
    '',
    '0',
    '-1',
    '1.5',
    '1e309',
    '2147483648',
    '9007199254740993',
    '99999999999999999999',
    'NaN',
    'Infinity',
    '0x10',
    '%00',
    'a%00b',
    '%ff',
    '%',
    '%c3%28',
    '%ed%a0%80',
    encodeURIComponent('\u202e日本'),
    'x'.repeat(dice.pick([101, 201, 5000])),
    `${'%41'.repeat(300)}`,
    'plain&style=controlled',
    Buffer.concat([Buffer.from('a'), dice.pick(INVALID_UTF8)]),
    Buffer.from([0x61, dice.pick([0x00, 0x01, 0x7f]), 0x62]),
    Buffer.from(JSON.stringify(['\u0000', 'x'])).toString('base64url'),
    Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', 'a\u0000'])).toString('base64url'),
    Buffer.from(JSON.stringify([1, 2])).toString('base64url'),
    Buffer.from('not json').toString('base64url'),
  ];
  const value = dice.pick(values);
  const extra = dice.pick(['', `&${name}=1`, '&unknown=1', '&__proto__=x', `&${name}[]=1`, '&&&', '#frag']);
  return {
    query: Buffer.concat([Buffer.from(`?${name}=`), typeof value === 'string' ? Buffer.from(value, 'latin1') : value, Buffer.from(extra)]),
    what: `query ${name}`,
  };
}

const ADMIN_AUTH: { value?: HeaderValue; kind: string; valid: boolean }[] = [
  { value: `Bearer ${ADMIN_TOKEN}`, kind: 'token', valid: true },
  { value: `Bearer ${ADMIN_TOKEN}`, kind: 'token', valid: true },
  { value: `Bearer ${ADMIN_TOKEN}`, kind: 'token', valid: true },
  { kind: 'no-token', valid: false },
  { value: `Bearer ${ADMIN_TOKEN.replace(/.$/, 'X')}`, kind: 'wrong-token', valid: false },
  { value: `Bearer ${ADMIN_TOKEN}x`, kind: 'longer-token', valid: false },
  { value: `bearer ${ADMIN_TOKEN}`, kind: 'lowercase-scheme', valid: false },
  { value: `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}`, kind: 'basic', valid: false },
  {
    value: Buffer.concat([Buffer.from('Bearer '), Buffer.from([0xff, 0xfe]), Buffer.from(ADMIN_TOKEN.slice(2))]),
    kind: 'raw-bytes-token',
    valid: false,
  },
  { value: '', kind: 'empty-auth', valid: false },
];

const CONTENT_TYPES: { value?: HeaderValue; json: boolean }[] = [
  { value: 'text/plain', json: false },
  { value: 'application/x-www-form-urlencoded', json: false },
  { value: 'multipart/form-data; boundary=x', json: false },
  { json: false },
  { value: 'application/json-patch+json', json: false },
  { value: 'application/jsonx', json: false },
  { value: 'APPLICATION/JSON', json: true },
  { value: 'application/json;charset=latin1', json: true },
  { value: 'application/json ; charset=utf-8', json: true },
  { value: Buffer.concat([Buffer.from('application/json; x='), Buffer.from([0xff])]), json: true },
  { value: 'application/json, text/plain', json: false },
];

function pathOf(endpoint: Endpoint, id: HeaderValue): HeaderValue {
  const join = (prefix: string, suffix = '') =>
    typeof id === 'string' ? `${prefix}${id}${suffix}` : Buffer.concat([Buffer.from(prefix), id, Buffer.from(suffix)]);
  switch (endpoint) {
    case 'stream':
      return join('/api/v1/duels/', '/stream');
    case 'messages':
      return join('/api/v1/duels/', '/messages');
    case 'reactions':
      return join('/api/v1/duels/', '/reactions');
    case 'vote':
      return join('/api/v1/duels/', '/vote');
    case 'transcript':
      return join('/api/v1/duels/', '');
    case 'report':
      return join('/api/v1/duels/', '/report');
    case 'admin-vote-review':
      return join('/api/v1/admin/votes/', '');
    case 'admin-review-item':
    case 'admin-review-decide':
      return join('/api/v1/admin/review/', '');
    default:
      return '/';
  }
}

const STATIC_PATHS: Partial<Record<Endpoint, { method: string; path: string }>> = {
  models: { method: 'GET', path: '/api/v1/models' },
  datasets: { method: 'GET', path: '/api/v1/datasets' },
  create: { method: 'POST', path: '/api/v1/duels' },
  leaderboard: { method: 'GET', path: '/api/v1/leaderboard' },
  history: { method: 'GET', path: '/api/v1/leaderboard/history' },
  healthz: { method: 'GET', path: '/healthz' },
  metrics: { method: 'GET', path: '/metrics' },
  openapi: { method: 'GET', path: '/api/v1/openapi.json' },
  'admin-upstream-errors': { method: 'GET', path: '/api/v1/admin/upstream-errors' },
  'admin-flagged': { method: 'GET', path: '/api/v1/admin/votes/flagged' },
  'admin-review-queue': { method: 'GET', path: '/api/v1/admin/review' },
  'admin-review-log': { method: 'GET', path: '/api/v1/admin/review-log' },
  root: { method: 'GET', path: '/' },
};
const ID_METHODS: Partial<Record<Endpoint, string>> = {
  stream: 'GET',
  messages: 'POST',
  reactions: 'POST',
  vote: 'POST',
  transcript: 'GET',
  report: 'POST',
  'admin-vote-review': 'PUT',
  'admin-review-item': 'GET',
  'admin-review-decide': 'PUT',
};

let slowLeft = slowBudget;

/** Case `index` of the run: a function of the seed and the index alone. */
function makeCase(index: number, context: Context): Case {
  const dice = new Dice(seededRandom((seed * 2654435761 + index * 40503) >>> 0));
  const endpoint = pickEndpoint(dice);
  const mutations: string[] = [];
  const headers: [string, HeaderValue][] = [];
  const host = `127.0.0.1:${context.port}`;
  const isAdmin = endpoint.startsWith('admin-');
  const takesId = ID_METHODS[endpoint] !== undefined;
  const visitor = dice.chance(0.7) ? dice.pick(context.visitors) : undefined;
  let method = ID_METHODS[endpoint] ?? STATIC_PATHS[endpoint]?.method ?? 'GET';
  let target: HeaderValue;
  let idKind = '';
  if (endpoint === 'unknown') {
    target = dice.pick<HeaderValue>([
      '/api/v1/nope',
      '/api/v2/duels',
      '/api/v1/duels/',
      '//api//v1//models',
      '/api/v1/models/../admin/review',
      '/api/v1/%2e%2e/admin/review',
      '/API/V1/MODELS',
      '/api/v1/models%00',
      '/.env',
      '/x.php',
      '/api/v1/admin',
      '/api/v1/admin/',
      `/api/v1/${'a/'.repeat(3000)}`,
      '*',
      'http://evil.example/api/v1/models',
      `http://127.0.0.1:${context.port}/api/v1/models`,
      Buffer.from([0x2f, 0xff, 0xfe]),
      '/api/v1/models?%',
      '/%',
      '/api/v1/duels/AAAAAAAAAAAAAAAAAAAAAA/unknown',
    ]);
    method = dice.pick(['GET', 'POST', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PUT']);
    mutations.push('unknown route');
  } else if (takesId) {
    // The admin API is nobody's: any duel of the store, as often as abuse.
    const { id, kind } =
      isAdmin && dice.chance(0.6)
        ? { id: dice.pick(dice.pick(context.visitors).duels[endpoint === 'admin-vote-review' ? 'voted' : 'any']), kind: 'stored' }
        : duelIdFor(dice, context, visitor);
    idKind = kind;
    target = pathOf(endpoint, id);
    mutations.push(`id ${kind}`);
  } else target = STATIC_PATHS[endpoint]!.path;

  // Query strings.
  if (
    ['leaderboard', 'history', 'stream', 'admin-upstream-errors', 'admin-flagged', 'admin-review-queue', 'admin-review-log'].includes(
      endpoint,
    )
  ) {
    const { query, what } = queryFor(endpoint, dice, context);
    target =
      typeof target === 'string' && typeof query === 'string'
        ? `${target}${query}`
        : Buffer.concat([Buffer.from(target), Buffer.from(query)]);
    mutations.push(what);
  }

  // Another method on a known route now and then.
  if (endpoint !== 'unknown' && dice.chance(0.04)) {
    method = dice.pick(['DELETE', 'PATCH', 'OPTIONS', 'HEAD', method === 'GET' ? 'POST' : 'GET']);
    mutations.push(`method ${method}`);
  }

  headers.push(['Host', host]);
  headers.push(['Connection', 'close']);
  headers.push(['X-Request-Id', `${REQUEST_ID_PREFIX}${index}`]);
  const cookie = cookieFor(dice, visitor);
  if (cookie.header !== undefined) headers.push(['Cookie', cookie.header]);
  if (cookie.kind !== 'cookie') mutations.push(cookie.kind);

  let authValid = false;
  if (isAdmin || endpoint === 'metrics') {
    const auth = dice.pick(ADMIN_AUTH);
    if (auth.value !== undefined) headers.push(['Authorization', auth.value]);
    authValid = auth.valid;
    mutations.push(auth.kind);
  }

  // Bodies.
  let body: Buffer | undefined;
  let framing: RawRequest['framing'];
  let bodyMutation = 'valid body';
  const base = validBody(endpoint, dice, context);
  const sendsBody = base !== undefined || dice.chance(0.03);
  if (sendsBody) {
    const valid = base ?? {};
    const roll = dice.int(100);
    if (roll < 30) body = jsonBody(valid);
    else if (roll < 62) {
      const mutated = mutateBody(valid, dice);
      body = jsonBody(mutated.body);
      bodyMutation = mutated.what;
    } else if (roll < 82) {
      body = brokenJson(dice, JSON.stringify(valid));
      bodyMutation = 'broken JSON';
    } else if (roll < 87) {
      const size = dice.pick([BODY_LIMIT + 1, BODY_LIMIT * 2, 2 * 1024 * 1024]);
      body = Buffer.from(JSON.stringify({ ...valid, prompt: 'x'.repeat(size) }));
      bodyMutation = `huge body ${body.length} bytes`;
    } else if (roll < 90) {
      body = Buffer.from(JSON.stringify({ ...valid, prompt: `${'\\u0000'.repeat(8)}${'é'.repeat(MAX_PROMPT_CHARS)}` }));
      bodyMutation = 'long escaped prompt';
    } else body = jsonBody({ ...valid, [dice.pick(['prompt', 'comment', 'reason'])]: hostileText(dice, MAX_PROMPT_CHARS) });
    if (body.length > BODY_LIMIT && dice.chance(0.4)) {
      framing = 'chunked';
      bodyMutation += ' (chunked)';
    } else if (dice.chance(0.05)) {
      framing = dice.pick(['chunked', 'short-length', 'long-length', 'none', 'both'] as const);
      bodyMutation += ` (${framing})`;
    }
    mutations.push(bodyMutation);
    const type = dice.chance(0.1) ? dice.pick(CONTENT_TYPES) : { value: 'application/json', json: true };
    if (type.value !== undefined) headers.push(['Content-Type', type.value]);
    if (type.value !== 'application/json') mutations.push(`content-type ${type.value === undefined ? 'none' : String(type.value)}`);
  }

  // Header abuse.
  if (dice.chance(0.08)) {
    const abuse = dice.int(9);
    if (abuse === 0 && endpoint === 'stream')
      headers.push(['Last-Event-ID', dice.pick(['-1', '1.5', 'abc', '9999999999', '99999999', '0', ' 3', '3 ', '１'])]);
    else if (abuse === 1) headers.push(['Last-Event-ID', Buffer.from([0x33, dice.pick([0x00, 0x0b, 0xff, 0x7f])])]);
    else if (abuse === 2) headers.push(['X-Request-Id', Buffer.from([0x61, 0xff, 0x62])]);
    else if (abuse === 3) headers.push(['X-Forwarded-For', dice.pick(['1.2.3.4', 'garbage', '::1, 10.0.0.1', '999.1.1.1', ''])]);
    else if (abuse === 4) headers.push(['X-Weird', Buffer.from([0x61, 0x01, 0x62])]);
    else if (abuse === 5) headers.push([`X-Long`, 'v'.repeat(dice.pick([8_000, 17_000, 70_000]))]);
    else if (abuse === 6) headers.push(['Accept-Encoding', 'gzip, br, zstd, *;q=0']);
    else if (abuse === 7) headers.push(['Expect', '100-continue']);
    else headers.push(['Host', 'second.example']);
    mutations.push(`header abuse ${abuse}`);
  }
  if (endpoint === 'stream' && dice.chance(0.15)) {
    headers.push(['Last-Event-ID', dice.pick(['1', '2', '5', '1000', '-1', 'abc', '1e3', '', '000000001', '123456789', '1234567890'])]);
    mutations.push('last-event-id');
  }

  const request: RawRequest = { method, target, headers, body, framing, stream: endpoint === 'stream' };
  if (framing === 'long-length') {
    // The server waits for bytes that never come: a slow body by another name.
    if (slowLeft > 0) slowLeft -= 1;
    else request.framing = 'length';
  }

  // Protocol abuse, now and then, on any endpoint.
  if (dice.chance(0.03)) {
    const abuse = dice.int(8);
    if (abuse === 0) request.version = dice.pick(['HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.1x']);
    else if (abuse === 1) request.method = dice.pick(['get', 'G\u0000ET', 'BREW', 'CONNECT']);
    else if (abuse === 2) request.headers = request.headers.filter(([name]) => name !== 'Host');
    else if (abuse === 3) request.trailer = Buffer.from(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    else if (abuse === 4) request.headers.push(['Transfer-Encoding', 'chunked, identity']);
    else if (abuse === 5) request.headers.push(['Content-Length', '5']);
    else if (abuse === 6) request.headers.push(['Bad Header Name', 'x']);
    else request.target = Buffer.concat([Buffer.from(request.target), Buffer.from(' HTTP/1.1\r\nX: y')]);
    mutations.push(`protocol abuse ${abuse}`);
  }

  // A few slow requests: they trickle, then wait (the server must answer 408 and close) or close.
  if (slowLeft > 0 && dice.chance(0.006)) {
    slowLeft -= 1;
    const bytes = serialize(request).length;
    request.trickle = {
      bytes: dice.chance(0.5) ? Math.min(bytes - 1, 40 + dice.int(200)) : Math.max(1, bytes - 1 - dice.int(3)),
      everyMs: dice.pick([5, 50, 300]),
      then: dice.chance(0.8) ? 'wait' : 'close',
    };
    mutations.push(`slow ${request.trickle.then}`);
  }

  const group = endpoint === 'unknown' || method === (ID_METHODS[endpoint] ?? STATIC_PATHS[endpoint]?.method) ? endpoint : 'other method';
  const visitorRoute =
    ['stream', 'messages', 'reactions', 'vote', 'transcript', 'report'].includes(endpoint) && method === ID_METHODS[endpoint];
  const someoneElses = visitorRoute && idKind.startsWith('others-');
  const expect = (response: RawResponse): string | undefined => {
    // Another visitor's duel: as if it did not exist (a 400 for a bad body or a 429 is no leak).
    if (someoneElses && response.status !== 0 && ![400, 404, 405, 408, 413, 415, 429, 431].includes(response.status))
      return `another visitor's duel answered ${response.status} (expected 404 duel_not_found)`;
    if (someoneElses && response.status === 404 && response.headers.has('x-request-id') && errorCodeOf(response) !== 'duel_not_found')
      return `another visitor's duel answered 404 ${errorCodeOf(response)} (expected duel_not_found)`;
    // The admin API and metrics without the token.
    if ((isAdmin || endpoint === 'metrics') && !authValid && response.status >= 200 && response.status < 300)
      return `${endpoint} answered ${response.status} without a valid token`;
    return undefined;
  };
  return { index, group, mutation: mutations.join(', '), request, expect };
}

function errorCodeOf(response: RawResponse): string | undefined {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(response.body));
    return parsed.success ? parsed.data.error.code : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The server's log

interface LogLine {
  level?: number;
  msg?: string;
  requestId?: string;
  [key: string]: unknown;
}
const errorLines: string[] = [];
const errorLinesByRequest = new Map<string, string[]>();
const logCounts = { lines: 0, byLevel: new Map<number, number>(), byMessage: new Map<string, number>() };
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line === '') continue;
      logCounts.lines += 1;
      let parsed: LogLine;
      try {
        parsed = JSON.parse(line) as LogLine;
      } catch {
        continue;
      }
      const level = typeof parsed.level === 'number' ? parsed.level : 0;
      logCounts.byLevel.set(level, (logCounts.byLevel.get(level) ?? 0) + 1);
      if (level >= 40) logCounts.byMessage.set(`${level} ${parsed.msg}`, (logCounts.byMessage.get(`${level} ${parsed.msg}`) ?? 0) + 1);
      if (level >= 50) {
        errorLines.push(line);
        const id = typeof parsed.requestId === 'string' ? parsed.requestId : '';
        errorLinesByRequest.set(id, [...(errorLinesByRequest.get(id) ?? []), line]);
      }
    }
    done();
  },
});
const processErrors: string[] = [];
process.on('unhandledRejection', (reason) => processErrors.push(`unhandledRejection: ${describeError(reason)}`));
process.on('uncaughtException', (error) => processErrors.push(`uncaughtException: ${describeError(error)}`));

// ---------------------------------------------------------------------------------------------
// Classification

interface Outcome {
  case: Case;
  response: RawResponse;
  problems: string[];
  /** Answered by Node's HTTP parser, before the application (no request id). */
  transport: boolean;
}

function classify(fuzzCase: Case, response: RawResponse): Outcome {
  const problems: string[] = [];
  const transport = response.status !== 0 && !response.headers.has('x-request-id');
  if (response.status >= 500) problems.push(`${response.status} answer`);
  if (response.status === 0 && response.ending === 'timeout') problems.push(`no answer within ${ANSWER_TIMEOUT_MS} ms (a hang?)`);
  if (response.status >= 400 && response.status < 500 && !transport && fuzzCase.request.method !== 'HEAD') {
    const code = errorCodeOf(response);
    if (code === undefined) problems.push(`${response.status} without the error body {"error":{"code","message"}}`);
    else if (!/^[a-z][a-z0-9_]*$/.test(code)) problems.push(`error code ${JSON.stringify(code)} is not snake_case`);
  }
  const expectation = fuzzCase.expect?.(response);
  if (expectation) problems.push(expectation);
  const requestId = `${REQUEST_ID_PREFIX}${fuzzCase.index}`;
  if (errorLinesByRequest.has(requestId)) problems.push('logged an error (level >= 50)');
  return { case: fuzzCase, response, problems, transport };
}

/** The headers every answer of the app carries (hono's secureHeaders): left out of the report. */
const SECURITY_HEADERS =
  /\r\n(content-security-policy|cross-origin-opener-policy|cross-origin-resource-policy|origin-agent-cluster|referrer-policy|x-content-type-options|x-dns-prefetch-control|x-download-options|x-frame-options|x-permitted-cross-domain-policies|x-xss-protection): [^\r]*/g;

/** Bytes as readable text: control and non-ASCII bytes escaped, long repetitions shortened (`(ab){*900}`). */
/** The mutations most often found in a set of cases (a case has several): what Node's parser refused. */
function topMutations(list: readonly Outcome[]): string {
  const counts = new Map<string, number>();
  for (const outcome of list)
    for (const tag of outcome.case.mutation.split(', ')) {
      const key = tag.replace(/ \d+ bytes/, '');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  return (
    [...counts]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 14)
      .map(([tag, n]) => `${tag} ${n}`)
      .join(', ') || 'none'
  );
}

function printable(bytes: Buffer | string, limit: number): string {
  const text = (typeof bytes === 'string' ? bytes : bytes.toString('latin1'))
    .replace(SECURITY_HEADERS, '')
    .replace(/([^]{1,6}?)\1{7,}/g, (run: string, unit: string) => `(${unit}){*${run.length / unit.length}}`);
  let escaped = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code === 0x0d) escaped += '\\r';
    else if (code === 0x0a) escaped += '\\n';
    else if (code < 0x20 || (code >= 0x7f && code <= 0xff)) escaped += `\\x${code.toString(16).padStart(2, '0')}`;
    else escaped += char;
  }
  return escaped.length > limit ? `${escaped.slice(0, limit)}… (${escaped.length} chars in all)` : escaped;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const started = performance.now();
  const hardStop = setTimeout(() => {
    process.stdout.write(`fuzz-api: FAILED: the run did not end within --timeout-s ${overallTimeoutMs / 1000} s\n`);
    process.exit(1);
  }, overallTimeoutMs);
  const logger = pino({ level: 'info' }, sink);
  const harness = await startTestArena(dialect!, {
    environment: ENVIRONMENT,
    logger,
    catalogue: (baseUrl) =>
      parseCatalogue(testCatalogueYaml(baseUrl, { firstTokenTimeoutMs: 3000, totalTimeoutMs: 20_000 }), 'fuzz-models.yaml', ENVIRONMENT),
  });
  harness.fake.behave(FAILING_MODEL.upstream, { httpStatus: 500 });
  harness.fake.behave(SLOW_MODEL.upstream, { tokensPerSecond: 4, text: 'slow '.repeat(200) });
  const port = Number(new URL(harness.baseUrl).port);
  const visitors = await seedVisitors(harness, 6);
  const context: Context = { port, visitors, modelIds: TEST_MODELS.map((model) => model.id) };
  process.stdout.write(
    `fuzz-api: store ${storeName}, ${requestCount} requests, seed ${seed}, concurrency ${concurrency}, at most ${slowBudget} slow requests; arena ${harness.baseUrl}\n`,
  );

  const outcomes: Outcome[] = [];
  let next = 0;
  let done = 0;
  const progress = setInterval(
    () => process.stdout.write(`  … ${((performance.now() - started) / 1000).toFixed(0)} s: ${done}/${requestCount} requests\n`),
    15_000,
  );
  const runner = async () => {
    for (;;) {
      const index = next;
      if (index >= requestCount) return;
      next += 1;
      const fuzzCase = makeCase(index, context);
      const response = await exchange(port, fuzzCase.request);
      outcomes.push(classify(fuzzCase, response));
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, runner));
  clearInterval(progress);
  const fuzzMs = performance.now() - started;

  // Errors logged after their answer (a turn that failed to store, a background job) are found here.
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (const outcome of outcomes) {
    const requestId = `${REQUEST_ID_PREFIX}${outcome.case.index}`;
    if (errorLinesByRequest.has(requestId) && !outcome.problems.includes('logged an error (level >= 50)'))
      outcome.problems.push('logged an error (level >= 50)');
  }
  let closeError: string | undefined;
  await Promise.race([
    harness.close(),
    new Promise<void>((_, reject) => setTimeout(() => reject(new Error('arena close: no end within 60 s')), 60_000)),
  ]).catch((error: unknown) => (closeError = describeError(error)));
  clearTimeout(hardStop);

  // ----- Report
  const statuses = [...new Set(outcomes.map((outcome) => outcome.response.status))].sort((x, y) => x - y);
  const groups = [...new Set(outcomes.map((outcome) => outcome.case.group))].sort();
  const count = (filter: (outcome: Outcome) => boolean) => outcomes.filter(filter).length;
  const label = (status: number) => (status === 0 ? 'none' : String(status));
  const width = Math.max(...groups.map((group) => group.length), 8);
  const lines: string[] = ['', `== fuzz-api summary (store ${storeName}, seed ${seed}) ==`];
  lines.push(`${'endpoint'.padEnd(width)} ${statuses.map((status) => label(status).padStart(5)).join(' ')}  total`);
  for (const group of [...groups, 'all']) {
    const inGroup = (outcome: Outcome) => group === 'all' || outcome.case.group === group;
    lines.push(
      `${group.padEnd(width)} ${statuses
        .map((status) => {
          const n = count((outcome) => inGroup(outcome) && outcome.response.status === status);
          return (n === 0 ? '.' : String(n)).padStart(5);
        })
        .join(' ')}  ${count(inGroup)}`,
    );
  }
  const fiveHundreds = outcomes.filter((outcome) => outcome.response.status >= 500);
  const offending = outcomes.filter((outcome) => outcome.problems.length > 0);
  const transport = outcomes.filter((outcome) => outcome.transport);
  const transportByStatus = new Map<number, number>();
  for (const outcome of transport)
    transportByStatus.set(outcome.response.status, (transportByStatus.get(outcome.response.status) ?? 0) + 1);
  const endings = new Map<string, number>();
  for (const outcome of outcomes) endings.set(outcome.response.ending, (endings.get(outcome.response.ending) ?? 0) + 1);
  const unanswered = outcomes.filter((outcome) => outcome.response.status === 0);
  const unansweredKinds = new Map<string, number>();
  for (const outcome of unanswered) {
    const key = `${outcome.response.ending}${outcome.case.request.trickle ? ' (slow request)' : ''}`;
    unansweredKinds.set(key, (unansweredKinds.get(key) ?? 0) + 1);
  }
  const problemKinds = new Map<string, number>();
  for (const outcome of offending)
    for (const problem of outcome.problems) {
      const key = problem.replace(/\d{3} answer/, (text) => text).replace(/^(another visitor's duel answered) \d+.*/, '$1 …');
      problemKinds.set(key, (problemKinds.get(key) ?? 0) + 1);
    }
  const unhandled = errorLines.length + processErrors.length;
  lines.push(
    '',
    `requests            ${outcomes.length} (slow ones ${outcomes.filter((outcome) => outcome.case.request.trickle || outcome.case.request.framing === 'long-length').length})`,
    `5xx answers         ${fiveHundreds.length}`,
    `unhandled errors    ${unhandled} (log lines level>=50: ${errorLines.length}; process: ${processErrors.length})`,
    `offending cases     ${offending.length}${problemKinds.size > 0 ? `: ${[...problemKinds].map(([kind, n]) => `${n} × ${kind}`).join('; ')}` : ''}`,
    `answered by Node    ${transport.length} (before the app, no JSON body: ${[...transportByStatus].map(([status, n]) => `${status}: ${n}`).join(', ') || 'none'})`,
    `  … by mutation     ${topMutations(transport)}`,
    `no status line      ${unanswered.length}${unansweredKinds.size > 0 ? ` (${[...unansweredKinds].map(([kind, n]) => `${kind}: ${n}`).join(', ')})` : ''}`,
    `connection endings  ${[...endings].map(([ending, n]) => `${ending}: ${n}`).join(', ')}`,
    `log lines           ${logCounts.lines} (${[...logCounts.byLevel].map(([level, n]) => `level ${level}: ${n}`).join(', ')})`,
    `machine load        ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')} at the end (1, 5, 15 min averages; ${cpus().length} cores)`,
    `elapsed             ${(fuzzMs / 1000).toFixed(1)} s fuzzing, ${((performance.now() - started) / 1000).toFixed(1)} s in all`,
  );
  if (logCounts.byMessage.size > 0) {
    lines.push('warnings and errors logged:');
    for (const [message, n] of [...logCounts.byMessage].sort((x, y) => y[1] - x[1])) lines.push(`  ${n} × ${message}`);
  }
  const showCases = (title: string, list: readonly Outcome[]) => {
    if (list.length === 0) return;
    lines.push('', `${title} (${list.length}; first ${Math.min(showCount, list.length)} in full):`);
    for (const outcome of list.slice(0, showCount)) {
      const { response } = outcome;
      lines.push(
        `-- case #${outcome.case.index} [${outcome.case.group}] ${outcome.case.mutation}`,
        `   problems: ${outcome.problems.join('; ') || 'none'}`,
        `   request:  ${printable(serialize(outcome.case.request), 1200)}`,
        `   answer:   ${response.status || 'no status'} after ${response.ms.toFixed(0)} ms, ${response.ending}${response.error ? ` (${response.error})` : ''}`,
        `   received: ${printable(response.raw, 1200)}`,
      );
      for (const line of errorLinesByRequest.get(`${REQUEST_ID_PREFIX}${outcome.case.index}`) ?? [])
        lines.push(`   log:      ${printable(line, 3000)}`);
    }
  };
  // Distinct failures: the endpoint, the status and the first logged error's message.
  const signatures = new Map<string, { count: number; first: number }>();
  for (const outcome of offending) {
    const logged = errorLinesByRequest.get(`${REQUEST_ID_PREFIX}${outcome.case.index}`)?.[0];
    let message = outcome.problems.filter((problem) => !problem.startsWith('logged')).join('; ');
    if (logged) {
      try {
        const parsed = JSON.parse(logged) as { msg?: string; err?: { type?: string; message?: string } };
        message = `${message} — logged "${parsed.msg}": ${parsed.err?.type ?? ''} ${parsed.err?.message ?? ''}`;
      } catch {
        // keep the problems alone
      }
    }
    const key = `[${outcome.case.group}] ${message.replace(/\d{6,}/g, 'N')}`;
    const entry = signatures.get(key) ?? { count: 0, first: outcome.case.index };
    entry.count += 1;
    signatures.set(key, entry);
  }
  if (signatures.size > 0) {
    lines.push('', `distinct failures (${signatures.size}):`);
    for (const [key, { count: n, first }] of [...signatures].sort((x, y) => y[1].count - x[1].count))
      lines.push(`  ${String(n).padStart(4)} × ${key} (first: case #${first})`);
  }
  const orderedOffending = [...fiveHundreds, ...offending.filter((outcome) => outcome.response.status < 500)];
  showCases('offending cases', orderedOffending);
  showCases('answered by Node before the app (informational)', transport);
  showCases(
    'closed without an answer (informational)',
    unanswered.filter((outcome) => outcome.response.ending !== 'client-left'),
  );
  const orphanErrors = errorLines.filter(
    (line) => ![...outcomes].some((outcome) => line.includes(`"${REQUEST_ID_PREFIX}${outcome.case.index}"`)),
  );
  if (orphanErrors.length > 0) {
    lines.push(
      '',
      `error log lines without a fuzz request id (${orphanErrors.length}, first ${Math.min(showCount, orphanErrors.length)}):`,
    );
    for (const line of orphanErrors.slice(0, showCount)) lines.push(`  ${printable(line, 3000)}`);
  }
  if (processErrors.length > 0) {
    lines.push('', 'process errors:');
    for (const error of processErrors.slice(0, showCount)) lines.push(`  ${error}`);
  }
  if (closeError) lines.push(`close error: ${closeError}`);
  const hangs = outcomes.filter((outcome) => outcome.response.ending === 'timeout' && outcome.response.status === 0);
  const checks: [string, boolean][] = [
    ['no 5xx', fiveHundreds.length === 0],
    ['no unhandled error logged', unhandled === 0],
    ['every request answered or closed in time (no hang)', hangs.length === 0],
    [
      'every 4xx of the app has the JSON error body',
      !offending.some((outcome) => outcome.problems.some((problem) => problem.includes('error body') || problem.includes('snake_case'))),
    ],
    [
      "another visitor's duel is not found; no admin answer without the token",
      !offending.some((outcome) => outcome.problems.some((problem) => problem.includes('visitor') || problem.includes('token'))),
    ],
    ['the arena closed', closeError === undefined],
  ];
  lines.push('', 'checks:');
  return printChecks('fuzz-api', lines, checks);
}

runScript('fuzz-api', main);
