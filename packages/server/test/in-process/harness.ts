import { type ReceivedFrame, readStreamFrames } from '@agora/contract';
import { pino } from 'pino';
import { inlineRankingComputer } from '../../src/adapters/ranking-worker/ranking-computer';
import type { CatalogueModel } from '../../src/config/catalogue';
import { parseCatalogue } from '../../src/config/catalogue';
import { loadConfig } from '../../src/config/config';
import { createSeededRandom } from '../../src/domain/ranking';
import { type Arena, createArena } from '../../src/main';
import {
  ProviderCallError,
  type ModelCallOptions,
  type ModelClient,
  type ModelStreamPart,
  type ModelStreamResult,
} from '../../src/providers/spec';
import type { Runtime } from '../../src/services/ports/runtime';
import { jsonRequest, testCatalogueYaml } from '../test-arena';

/**
 * The in-process layer: the whole arena (routes, services, repositories) called through Hono's
 * `app.request()`, with in-memory implementations of its ports: an in-memory SQLite store, scripted
 * model clients instead of HTTP providers, and a clock and random source the test sets. No socket,
 * no thread, no file: fast enough to cover every rule and error path.
 */

/** What a scripted model does on its next call. */
export type ModelScript =
  /**
   * The answer, ending on `finishReason` (`stop` unless said: `length` is a reply cut on its budget);
   * `delayMs` before each word; `startsAfter`: no word before this promise settles (a turn the test
   * keeps running for as long as it needs, whatever the machine's load).
   */
  | { answer: string; delayMs?: number; finishReason?: string; startsAfter?: Promise<unknown> }
  /**
   * The call is refused before any part (the provider's HTTP error): final unless `retryable` (a 429
   * or a 5xx), with the upstream's Retry-After when `retryAfterMs` is set.
   */
  | { refuse: number; retryable?: boolean; retryAfterMs?: number }
  /** The stream breaks after these characters. */
  | { breakAfter: string };

/** Model clients that follow a script per model id; the default answer names the call. */
export class ScriptedModels {
  private readonly scripts = new Map<string, ModelScript[]>();
  private readonly responders = new Map<string, (options: ModelCallOptions) => ModelScript>();
  readonly calls: { modelId: string; options: ModelCallOptions }[] = [];

  /** The next calls of this model follow these scripts, in order; later calls answer by default. */
  script(modelId: string, ...scripts: ModelScript[]): void {
    this.scripts.set(modelId, [...(this.scripts.get(modelId) ?? []), ...scripts]);
  }

  /**
   * Once its scripts are used up, this model answers each call as `responder` says from what it was
   * sent (a judge that reads the two replies it is shown, a critic that tells its two steps apart).
   */
  respond(modelId: string, responder: (options: ModelCallOptions) => ModelScript): void {
    this.responders.set(modelId, responder);
  }

  /** The calls this model was sent, in order. */
  callsOf(modelId: string): ModelCallOptions[] {
    return this.calls.filter((call) => call.modelId === modelId).map((call) => call.options);
  }

  /** Its script's next step, else its responder's answer, else the default answer that names the call. */
  private nextScript(modelId: string, options: ModelCallOptions): ModelScript {
    const scripted = this.scripts.get(modelId)?.shift() ?? this.responders.get(modelId)?.(options);
    return scripted ?? { answer: `answer ${this.calls.length} from the model` };
  }

  clientOf = (model: CatalogueModel): ModelClient => this.clientNamed(model.entry.id);

  /** The scripted client of a model id, for a service that takes its clients directly (the optimised set's roles). */
  clientNamed = (modelId: string): ModelClient => ({
    specificationVersion: 'v1',
    provider: 'scripted',
    modelId,
    doStream: (options) => {
      this.calls.push({ modelId, options });
      const script = this.nextScript(modelId, options);
      if ('refuse' in script) {
        return Promise.reject(
          new ProviderCallError({
            kind: 'http_error',
            message: `refused with ${script.refuse}`,
            statusCode: script.refuse,
            isRetryable: script.retryable ?? false,
            retryAfterMs: script.retryAfterMs,
          }),
        );
      }
      return Promise.resolve(streamOf(script, options.abortSignal));
    },
  });
}

function streamOf(script: Exclude<ModelScript, { refuse: number }>, signal: AbortSignal | undefined): ModelStreamResult {
  async function* parts(): AsyncGenerator<ModelStreamPart> {
    yield { type: 'stream-start', warnings: [] };
    yield { type: 'text-start', id: 't' };
    const text = 'answer' in script ? script.answer : script.breakAfter;
    const words = text.split(/(?<= )/);
    if ('startsAfter' in script && script.startsAfter) await script.startsAfter;
    for (const word of words) {
      if ('delayMs' in script && script.delayMs) await new Promise((resolve) => setTimeout(resolve, script.delayMs));
      if (signal?.aborted) return;
      yield { type: 'text-delta', id: 't', delta: word };
    }
    if ('breakAfter' in script) {
      yield { type: 'error', error: new ProviderCallError({ kind: 'stream_cut', message: 'the stream broke', isRetryable: false }) };
      return;
    }
    yield { type: 'text-end', id: 't' };
    yield {
      type: 'finish',
      finishReason: ('finishReason' in script && script.finishReason) || 'stop',
      usage: { inputTokens: 5, outputTokens: words.length, reasoningTokens: undefined },
    };
  }
  return { stream: parts() };
}

/** A clock that moves only when the test says, ids in sequence, and a seeded random source. */
export class TestRuntime implements Runtime {
  private time: number;
  private ids = 0;
  readonly random: () => number;

  constructor(start = '2026-06-01T12:00:00.000Z', seed = 7) {
    this.time = Date.parse(start);
    const source = createSeededRandom(seed);
    this.random = () => source.nextDouble();
  }

  now = (): Date => new Date(this.time);
  newId = (): string => `test-id-${(++this.ids).toString().padStart(8, '0')}`;

  advance(milliseconds: number): void {
    this.time += milliseconds;
  }
}

export interface InProcessArena {
  arena: Arena;
  models: ScriptedModels;
  runtime: TestRuntime;
  /** A visitor with its own cookie jar. */
  visitor(): Visitor;
  close(): Promise<void>;
}

export interface InProcessResponse {
  status: number;
  headers: Headers;
  json: any;
}

/** One browser: keeps the visitor cookie the arena sets, as a browser does. */
export class Visitor {
  private cookie: string | undefined;

  constructor(private readonly arena: Arena) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<InProcessResponse> {
    const response = await this.arena.app.request(path, jsonRequest(method, body, this.cookie, headers));
    this.keepCookie(response);
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: text.startsWith('{') ? JSON.parse(text) : text };
  }

  /** Every frame of a turn's stream, to its end. */
  async stream(duelId: string, turn?: number): Promise<ReceivedFrame[]> {
    const response = await this.arena.app.request(`/api/v1/duels/${duelId}/stream${turn === undefined ? '' : `?turn=${turn}`}`, {
      headers: this.cookie ? { cookie: this.cookie } : {},
    });
    if (response.status !== 200 || !response.body) throw new Error(`stream answered ${response.status}: ${await response.text()}`);
    const frames: ReceivedFrame[] = [];
    for await (const frame of readStreamFrames(response.body)) frames.push(frame);
    return frames;
  }

  /** Creates a duel of these two models and reads its first turn to the end. */
  async playedDuel(models: [string, string], prompt = 'Bonjour, comment vas-tu ?'): Promise<{ id: string; frames: ReceivedFrame[] }> {
    const created = await this.request('POST', '/api/v1/duels', { prompt, mode: 'custom', models });
    if (created.status !== 201) throw new Error(`duel not created: ${JSON.stringify(created.json)}`);
    const id = created.json.id as string;
    return { id, frames: await this.stream(id) };
  }

  private keepCookie(response: Response): void {
    const set = response.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0];
  }
}

/** An arena on an in-memory SQLite store with scripted models, a test clock and inline ranking. */
export async function startInProcessArena(environment: Record<string, string> = {}): Promise<InProcessArena> {
  const settings = {
    DATABASE_URL: 'sqlite::memory:',
    AGORA_LOG_LEVEL: 'silent',
    AGORA_POSTPROCESS: 'false',
    ...environment,
  };
  const config = loadConfig(settings);
  // The providers' addresses are never called: every model answers through its scripted client.
  const catalogue = parseCatalogue(testCatalogueYaml('http://127.0.0.1:9'), 'test-models.yaml', settings);
  const models = new ScriptedModels();
  const runtime = new TestRuntime();
  const arena = await createArena(config, settings, {
    catalogue,
    logger: pino({ level: process.env.AGORA_TEST_LOG ?? 'silent' }),
    runtime,
    modelClient: models.clientOf,
    rankingComputer: inlineRankingComputer,
  });
  // The refresh at start reads an empty store; waited for, so that it cannot read a test's first votes.
  await arena.leaderboardRefresh.idle();
  return { arena, models, runtime, visitor: () => new Visitor(arena), close: () => arena.close() };
}
