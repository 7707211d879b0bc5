import type { ServerType } from '@hono/node-server';
import { type Logger, pino } from 'pino';
import { type ReceivedFrame, readStreamFrames } from '@agora/contract';
import { parseCatalogue, type CatalogueModel } from '../src/config/catalogue';
import { loadConfig } from '../src/config/config';
import { type Arena, createArena, listen } from '../src/main';
import type { Runtime } from '../src/services/ports/runtime';
import { FakeUpstream } from './fake-upstream/fake-upstream';
import type { TestDialect, TestStore } from './test-db';

/** The test catalogue: distinctive names so that blindness checks cannot miss a leak. */
export const TEST_MODELS = [
  {
    id: 'zephyrine-405b',
    name: 'Zephyrine Ultra',
    organisation: 'Quorvex Labs',
    params: 405,
    reasoning: false,
    upstream: 'quorvex/zephyrine-ultra',
  },
  {
    id: 'brontal-120b',
    name: 'Brontal Max',
    organisation: 'Helmquist AI',
    params: 120,
    reasoning: false,
    upstream: 'helmquist/brontal-max',
  },
  { id: 'miravel-24b', name: 'Miravel Swift', organisation: 'Tarvonia', params: 24, reasoning: false, upstream: 'tarvonia/miravel-swift' },
  { id: 'kestrix-8b', name: 'Kestrix Nano', organisation: 'Quorvex Labs', params: 8, reasoning: false, upstream: 'quorvex/kestrix-nano' },
  {
    id: 'sollary-32b',
    name: 'Sollary Think',
    organisation: 'Pellucid Systems',
    params: 32,
    reasoning: true,
    upstream: 'pellucid/sollary-think',
  },
  { id: 'ombrel-70b', name: 'Ombrel Reason', organisation: 'Drovantic', params: 70, reasoning: true, upstream: 'drovantic/ombrel-reason' },
] as const;

export function testCatalogueYaml(baseUrl: string, options: { firstTokenTimeoutMs?: number; totalTimeoutMs?: number } = {}): string {
  return `models:\n${TEST_MODELS.map(
    (model) => `  - id: ${model.id}
    name: ${model.name}
    organisation: ${model.organisation}
    license: Apache 2.0
    open_weights: true
    arch: dense
    params_b: ${model.params}
    reasoning: ${model.reasoning}
    release_date: '2026-01'
    provider:
      type: ${model.id === 'brontal-120b' ? 'anthropic' : 'openai-compatible'}${model.id === 'miravel-24b' ? '\n      client: ai-sdk' : ''}
      base_url: ${baseUrl}
      model: ${model.upstream}
    options:
      first_token_timeout_ms: ${options.firstTokenTimeoutMs ?? 3000}
      total_timeout_ms: ${options.totalTimeoutMs ?? 6000}`,
  ).join('\n')}\n`;
}

export interface TestArena {
  arena: Arena;
  store: TestStore;
  fake: FakeUpstream;
  baseUrl: string;
  client: ArenaClient;
  close(): Promise<void>;
}

export interface TestArenaOptions {
  environment?: Record<string, string>;
  catalogue?: (fakeBaseUrl: string) => CatalogueModel[];
  runtime?: Runtime;
  logger?: Logger;
  /** Another arena's store, kept when this one closes: a restart on the same data. */
  store?: TestStore;
}

/** A real arena over real HTTP, on a fresh store of the dialect, with the fake upstream behind it. */
export async function startTestArena(dialect: TestDialect, options: TestArenaOptions = {}): Promise<TestArena> {
  const fake = await new FakeUpstream().start();
  const store: TestStore = options.store ?? (await dialect.create());
  const databaseUrl = store.location.kind === 'sqlite' ? `sqlite:${store.location.path}` : store.location.url;
  // Prompt de-duplication off unless a test turns it on: most tests play one prompt many times from one visitor for convenience.
  const environment = {
    DATABASE_URL: databaseUrl,
    PORT: '0',
    AGORA_LOG_LEVEL: 'silent',
    AGORA_REPLAY_TTL_S: '60',
    AGORA_LEADERBOARD_PROMPT_DEDUP: '0',
    ...options.environment,
  };
  const config = loadConfig(environment);
  const catalogue = options.catalogue?.(fake.baseUrl) ?? parseCatalogue(testCatalogueYaml(fake.baseUrl), 'test-models.yaml', environment);
  const arena = await createArena(config, environment, {
    catalogue,
    logger: options.logger ?? pino({ level: 'silent' }),
    runtime: options.runtime,
  });
  const server: ServerType = await listen(arena, config);
  const address = server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    arena,
    store,
    fake,
    baseUrl,
    client: new ArenaClient(baseUrl),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await arena.close();
      await fake.stop();
      if (!options.store) await store.drop();
    },
  };
}

/** A request as a browser of the arena sends it: JSON body (a string or bytes are sent as they are), its cookie, extra headers. */
export function jsonRequest(method: string, body: unknown, cookie: string | undefined, headers: Record<string, string> = {}): RequestInit {
  return {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(cookie ? { cookie } : {}),
      ...headers,
    },
    body:
      body === undefined
        ? undefined
        : typeof body === 'string'
          ? body
          : body instanceof Uint8Array
            ? (body as Uint8Array<ArrayBuffer>)
            : JSON.stringify(body),
  };
}

/** Everything a response carried: status, headers and body text, for blindness checks. */
export interface RecordedResponse {
  status: number;
  headers: string;
  body: string;
}

/** A client that follows docs/api.md, keeps the visitor cookie and records every byte it receives. */
export class ArenaClient {
  readonly received: RecordedResponse[] = [];
  private cookie: string | undefined;

  /** `cookie`: a visitor cookie (`name=value`) to start with, e.g. the same visitor on a restarted arena. */
  constructor(
    readonly baseUrl: string,
    cookie?: string,
  ) {
    this.cookie = cookie;
  }

  /** The visitor cookie this client received (`name=value`), for requests made another way: a duel is only its visitor's. */
  get visitorCookie(): string | undefined {
    return this.cookie;
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; json: any; headers: Headers }> {
    const response = await fetch(`${this.baseUrl}${path}`, jsonRequest(method, body, this.cookie, headers));
    this.keepCookie(response);
    const text = await response.text();
    this.received.push({
      status: response.status,
      headers: [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n'),
      body: text,
    });
    return { status: response.status, json: text ? JSON.parse(text) : undefined, headers: response.headers };
  }

  /** Reads a turn stream to its end (or until `stopAfter` frames, then drops the connection); `headers` are added to the request. */
  async stream(
    duelId: string,
    options: { turn?: number; lastEventId?: string; stopAfter?: number; headers?: Record<string, string> } = {},
  ): Promise<ReceivedFrame[]> {
    const controller = new AbortController();
    const response = await fetch(`${this.baseUrl}/api/v1/duels/${duelId}/stream${options.turn ? `?turn=${options.turn}` : ''}`, {
      headers: {
        ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...options.headers,
      },
      signal: controller.signal,
    });
    this.keepCookie(response);
    if (response.status !== 200 || !response.body) throw new Error(`stream answered ${response.status}: ${await response.text()}`);
    const frames: ReceivedFrame[] = [];
    const raw = response.body.tee();
    const recorded = new Response(raw[1]).text();
    for await (const frame of readStreamFrames(raw[0])) {
      frames.push(frame);
      if (options.stopAfter !== undefined && frames.length >= options.stopAfter) {
        controller.abort();
        break;
      }
    }
    const body = await recorded.catch(() => '(aborted)');
    this.received.push({
      status: response.status,
      headers: [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n'),
      body,
    });
    return frames;
  }

  private keepCookie(response: Response): void {
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0];
  }
}

/** A browser behind a trusted proxy at `address`: its requests and its streams carry `X-Forwarded-For`. */
export class ClientAt extends ArenaClient {
  constructor(
    baseUrl: string,
    private readonly address: string,
    cookie?: string,
  ) {
    super(baseUrl, cookie);
  }
  override request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    return super.request(method, path, body, { 'x-forwarded-for': this.address, ...headers });
  }
  override stream(duelId: string, options: Parameters<ArenaClient['stream']>[1] = {}) {
    return super.stream(duelId, { ...options, headers: { 'x-forwarded-for': this.address, ...options.headers } });
  }
}

/** Each side's text, joined from the text-delta frames. */
export function streamedText(frames: readonly ReceivedFrame[]): { a: string; b: string } {
  const text = { a: '', b: '' };
  for (const { event } of frames) if (event.type === 'text-delta') text[event.side] += event.text;
  return text;
}

/** Polls `read` until `done` holds (background jobs, refreshes); fails with the last value after the timeout. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached in time: ${JSON.stringify(value).slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
