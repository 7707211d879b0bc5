import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How the fake answers one model. Everything is optional: by default it streams a short answer
 * quickly, with usage. Failures are on purpose: HTTP errors, cut streams, bad JSON, streams that
 * never end, empty answers.
 */
export interface FakeBehaviour {
  /** The answer (or a function of the last user prompt and of the whole request's messages, system prompt included, as JSON). */
  text?: string | ((prompt: string, messages: string) => string);
  /**
   * How the stream says it ended (`stop` by default): `length` for an answer cut on its output
   * budget, `content_filter`… (or a function of the request's `max_tokens` and the prompt).
   */
  finishReason?: string | ((maxTokens: number | undefined, prompt: string) => string);
  /** Reasoning sent before the answer (`reasoning_content` / Anthropic thinking). */
  reasoning?: string;
  /** Pace of the stream; 0 sends every chunk at once. */
  tokensPerSecond?: number;
  firstTokenDelayMs?: number;
  /** Answer with this HTTP status and body instead of a stream. */
  httpStatus?: number;
  /** Destroy the connection after this many content chunks. */
  cutAfterChunks?: number;
  /** Send a line of invalid JSON after this many content chunks. */
  malformedAfterChunks?: number;
  /** Send the answer, then keep the stream open forever (no finish, no [DONE]). */
  neverEnd?: boolean;
  /** Omit the usage chunk, so that the arena counts tokens itself. */
  noUsage?: boolean;
  /** Only the first N requests get `httpStatus`; later ones stream normally. */
  failTimes?: number;
  /** Every N-th request gets `httpStatus` (503 when unset); the others stream normally. */
  failEvery?: number;
  /**
   * The first request and every N-th after it are cut after `cutAfterChunks` (8 when unset) content
   * chunks: a connection that drops mid-answer, which the arena can neither retry nor replace.
   */
  cutEvery?: number;
  /** The model name the stream reports as served (a router's fallback, a substitution); the requested one by default. */
  servedModel?: string;
  /** Sent as `Retry-After` (seconds) with `httpStatus`. */
  retryAfterS?: number;
}

/** One request the fake received, for assertions. */
export interface FakeRequest {
  protocol: 'openai' | 'anthropic';
  model: string;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  /** The client went away before the fake finished its answer (the arena cancelled it). */
  aborted: boolean;
  completed: boolean;
  chunksSent: number;
  /** When the request arrived and when its first content chunk was written, in ms since the epoch (sub-millisecond, comparable across processes of one machine). */
  receivedAt: number;
  firstChunkAt?: number;
  /** When the response ended (finished or cut), same clock. */
  endedAt?: number;
}

const wallClock = () => performance.timeOrigin + performance.now();

const defaultText = (prompt: string) =>
  `Here is a short answer about "${prompt.slice(0, 60)}". It has **two** paragraphs and a list:\n\n- first point\n- second point\n\nThat is all.`;

/** A fake OpenAI-compatible and Anthropic streaming server, over real HTTP, scriptable per model. */
export class FakeUpstream {
  readonly requests: FakeRequest[] = [];
  private readonly behaviours = new Map<string, FakeBehaviour>();
  private readonly openResponses = new Set<ServerResponse>();
  private server: Server | undefined;
  private port = 0;
  defaultBehaviour: FakeBehaviour = {};

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    for (const response of this.openResponses) response.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Sets how the fake answers requests for `model` (the vendor model name). */
  behave(model: string, behaviour: FakeBehaviour): void {
    this.behaviours.set(model, behaviour);
  }

  reset(): void {
    this.behaviours.clear();
    this.requests.length = 0;
  }

  requestsFor(model: string): FakeRequest[] {
    return this.requests.filter((request) => request.model === model);
  }

  /** The most requests of these models that were open at the same time. */
  peakConcurrency(models: readonly string[]): number {
    const events = this.requests
      .filter((request) => models.includes(request.model))
      .flatMap((request) => [
        { at: request.receivedAt, step: 1 },
        { at: request.endedAt ?? Infinity, step: -1 },
      ])
      // An end and a start at the same instant do not overlap.
      .sort((left, right) => left.at - right.at || left.step - right.step);
    let open = 0;
    let peak = 0;
    for (const event of events) peak = Math.max(peak, (open += event.step));
    return peak;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const receivedAt = wallClock();
    const protocol = request.url?.endsWith('/chat/completions') ? 'openai' : request.url?.endsWith('/messages') ? 'anthropic' : undefined;
    if (request.method !== 'POST' || !protocol) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(request)) as Record<string, unknown>;
    } catch {
      response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad json"}}');
      return;
    }
    const model = String(body.model);
    const record: FakeRequest = {
      protocol,
      model,
      body,
      headers: request.headers,
      aborted: false,
      completed: false,
      chunksSent: 0,
      receivedAt,
    };
    this.requests.push(record);
    const behaviour = { ...this.defaultBehaviour, ...this.behaviours.get(model) };
    response.on('close', () => {
      record.endedAt = wallClock();
      this.openResponses.delete(response);
      if (!record.completed) record.aborted = true;
    });
    const seen = this.requestsFor(model).length;
    const failing =
      behaviour.failEvery !== undefined
        ? seen % behaviour.failEvery === 0
        : behaviour.failTimes === undefined || seen <= behaviour.failTimes;
    const httpStatus = behaviour.httpStatus ?? (behaviour.failEvery !== undefined ? 503 : undefined);
    if (httpStatus && failing) {
      await sleep(behaviour.firstTokenDelayMs ?? 0);
      response
        .writeHead(httpStatus, {
          'content-type': 'application/json',
          ...(behaviour.retryAfterS === undefined ? {} : { 'retry-after': String(behaviour.retryAfterS) }),
        })
        .end(JSON.stringify({ error: { message: `fake error ${httpStatus}`, type: 'fake' } }));
      record.completed = true;
      return;
    }
    this.openResponses.add(response);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const prompt = lastUserPrompt(body);
    const text =
      typeof behaviour.text === 'function'
        ? behaviour.text(prompt, JSON.stringify(body.messages ?? []))
        : (behaviour.text ?? defaultText(prompt));
    const maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : undefined;
    const finishReason =
      typeof behaviour.finishReason === 'function' ? behaviour.finishReason(maxTokens, prompt) : (behaviour.finishReason ?? 'stop');
    const served = behaviour.servedModel ?? model;
    const writer = protocol === 'openai' ? new OpenAiWriter(response, served) : new AnthropicWriter(response, served);
    await streamAnswer(writer, response, record, withCutOf(behaviour, seen), text, finishReason);
  }
}

/** The behaviour of the `seen`-th request: with `cutEvery`, only the requests it names are cut. */
function withCutOf(behaviour: FakeBehaviour, seen: number): FakeBehaviour {
  if (behaviour.cutEvery === undefined) return behaviour;
  const cut = (seen - 1) % behaviour.cutEvery === 0;
  return { ...behaviour, cutAfterChunks: cut ? (behaviour.cutAfterChunks ?? 8) : undefined };
}

interface ProtocolWriter {
  start(): void;
  reasoning(delta: string): void;
  text(delta: string): void;
  malformed(): void;
  finish(outputTokens: number | undefined, inputTokens: number, finishReason: string): void;
}

async function streamAnswer(
  writer: ProtocolWriter,
  response: ServerResponse,
  record: FakeRequest,
  behaviour: FakeBehaviour,
  text: string,
  finishReason: string,
): Promise<void> {
  const pause = behaviour.tokensPerSecond ? 1000 / behaviour.tokensPerSecond : 0;
  writer.start();
  await sleep(behaviour.firstTokenDelayMs ?? 0);
  const chunks = [
    ...splitTokens(behaviour.reasoning ?? '').map((delta) => ['reasoning', delta] as const),
    ...splitTokens(text).map((delta) => ['text', delta] as const),
  ];
  for (const [kind, delta] of chunks) {
    if (response.destroyed) return;
    if (record.chunksSent === behaviour.cutAfterChunks) {
      // Let what was written reach the client first, so that the cut lands mid-stream.
      await sleep(50);
      response.destroy();
      return;
    }
    if (record.chunksSent === behaviour.malformedAfterChunks) writer.malformed();
    if (kind === 'reasoning') writer.reasoning(delta);
    else writer.text(delta);
    if (record.chunksSent === 0) record.firstChunkAt = wallClock();
    record.chunksSent += 1;
    if (pause > 0) await sleep(pause);
  }
  if (behaviour.neverEnd) return;
  writer.finish(behaviour.noUsage ? undefined : chunks.length, 12, finishReason);
  record.completed = true;
  response.end();
}

/** Splits text into word-sized pieces, the way tokens arrive. */
function splitTokens(text: string): string[] {
  return text.match(/\s*\S+\s*?|\s+/g) ?? [];
}

class OpenAiWriter implements ProtocolWriter {
  private readonly id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
  constructor(
    private readonly response: ServerResponse,
    private readonly model: string,
  ) {}
  private send(choices: unknown[], extra: Record<string, unknown> = {}): void {
    this.response.write(
      `data: ${JSON.stringify({ id: this.id, object: 'chat.completion.chunk', created: 1, model: this.model, choices, ...extra })}\n\n`,
    );
  }
  start(): void {
    this.send([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
  }
  reasoning(delta: string): void {
    this.send([{ index: 0, delta: { reasoning_content: delta }, finish_reason: null }]);
  }
  text(delta: string): void {
    this.send([{ index: 0, delta: { content: delta }, finish_reason: null }]);
  }
  malformed(): void {
    this.response.write('data: {"id": "broken", "choices": [{"delta": {"content": "oops"\n\n');
  }
  finish(outputTokens: number | undefined, inputTokens: number, finishReason: string): void {
    this.send([{ index: 0, delta: {}, finish_reason: finishReason }]);
    if (outputTokens !== undefined)
      this.send([], { usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens } });
    this.response.write('data: [DONE]\n\n');
  }
}

class AnthropicWriter implements ProtocolWriter {
  private block = -1;
  private blockType: 'thinking' | 'text' | undefined;
  constructor(
    private readonly response: ServerResponse,
    private readonly model: string,
  ) {}
  private send(event: string, data: Record<string, unknown>): void {
    this.response.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  }
  private open(type: 'thinking' | 'text'): void {
    if (this.blockType === type) return;
    this.close();
    this.block += 1;
    this.blockType = type;
    this.send('content_block_start', {
      index: this.block,
      content_block: type === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '' },
    });
  }
  private close(): void {
    if (this.blockType === undefined) return;
    if (this.blockType === 'thinking')
      this.send('content_block_delta', { index: this.block, delta: { type: 'signature_delta', signature: 'fake' } });
    this.send('content_block_stop', { index: this.block });
    this.blockType = undefined;
  }
  start(): void {
    this.send('message_start', {
      message: {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        model: this.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 1 },
      },
    });
  }
  reasoning(delta: string): void {
    this.open('thinking');
    this.send('content_block_delta', { index: this.block, delta: { type: 'thinking_delta', thinking: delta } });
  }
  text(delta: string): void {
    this.open('text');
    this.send('content_block_delta', { index: this.block, delta: { type: 'text_delta', text: delta } });
  }
  malformed(): void {
    this.response.write('event: content_block_delta\ndata: {"type": "content_block_delta", "index": \n\n');
  }
  finish(outputTokens: number | undefined, _inputTokens: number, finishReason: string): void {
    this.close();
    const stopReason = finishReason === 'stop' ? 'end_turn' : finishReason === 'length' ? 'max_tokens' : finishReason;
    this.send('message_delta', {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: outputTokens === undefined ? {} : { output_tokens: outputTokens },
    });
    this.send('message_stop', {});
  }
}

function lastUserPrompt(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as { role: string; content: unknown }[]) : [];
  const last = messages.filter((message) => message.role === 'user').at(-1);
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return (last.content as { text?: string }[]).map((part) => part.text ?? '').join('');
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
