/**
 * The least a Node.js arena could do, as a yardstick for the time to first token the arena adds
 * (`AGORA_BENCH_ARENA=ttft-floor`): the same public routes as the arena for the load generator
 * (`POST /api/v1/duels` with the two models, `GET /api/v1/duels/:id/stream`), two upstream streams per
 * duel with Node's HTTP client, each chunk's JSON parsed for its text (the arena's SSE parser), and the
 * text relayed as the arena's frames (its `encodeFrame`), later deltas gathered as the arena does
 * (`DELTA_FLUSH_INTERVAL_MS`). Nothing else: no validation, no store, no pairing, no replay after the
 * end, no retries, no metrics. What it adds at a given load is
 * what any arena written for Node.js adds at least on this machine. Prints its URL as the arena's log does.
 */
import { Agent, type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import { DELTA_FLUSH_INTERVAL_MS, encodeFrame } from '../src/http/sse';
import { SseDataParser } from '../src/providers/openai-compatible/parse-sse-events';

const upstreamUrl = process.env.UPSTREAM_URL!;
const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

interface Duel {
  id: string;
  frames: string[];
  /** Frames of each side that carried text (the first one of a side is written at once). */
  started: { a: boolean; b: boolean };
  sidesDone: number;
  viewer: ServerResponse | undefined;
  sent: number;
  lastWriteAt: number;
  timer: NodeJS.Timeout | undefined;
  ended: boolean;
}

const duels = new Map<string, Duel>();
let nextId = 0;

function flush(duel: Duel): void {
  clearTimeout(duel.timer);
  duel.timer = undefined;
  const viewer = duel.viewer;
  if (viewer === undefined) return;
  if (duel.sent < duel.frames.length) {
    viewer.write(duel.frames.slice(duel.sent).join(''));
    duel.sent = duel.frames.length;
    duel.lastWriteAt = performance.now();
  }
  if (duel.ended) {
    viewer.end();
    duels.delete(duel.id);
  }
}

function push(duel: Duel, frame: string, canWait: boolean): void {
  duel.frames.push(frame);
  if (duel.viewer === undefined) return;
  const wait = duel.lastWriteAt + DELTA_FLUSH_INTERVAL_MS - performance.now();
  if (canWait && wait > 0) {
    duel.timer ??= setTimeout(() => flush(duel), wait);
    return;
  }
  flush(duel);
}

function streamSide(duel: Duel, side: 'a' | 'b', model: string, prompt: string): void {
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: prompt }], stream: true });
  const call = request(
    `${upstreamUrl}/chat/completions`,
    { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
    (response) => {
      const events = new SseDataParser();
      response.setEncoding('utf8');
      response.on('data', (text: string) => {
        for (const payload of events.push(text)) {
          if (payload === '[DONE]') continue;
          const content = (JSON.parse(payload) as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content;
          if (!content) continue;
          push(duel, encodeFrame({ id: duel.frames.length + 1, event: { type: 'text-delta', side, text: content } }), duel.started[side]);
          duel.started[side] = true;
        }
      });
      response.on('end', () => {
        duel.sidesDone += 1;
        if (duel.sidesDone < 2) return;
        duel.ended = true;
        push(duel, encodeFrame({ id: duel.frames.length + 1, event: { type: 'turn-end', turn: 1, status: 'complete' } }), false);
      });
    },
  );
  call.end(body);
}

function readJson(incoming: IncomingMessage): Promise<{ prompt: string; models: [string, string] }> {
  return new Promise((resolve) => {
    let text = '';
    incoming.setEncoding('utf8');
    incoming.on('data', (chunk: string) => (text += chunk));
    incoming.on('end', () => resolve(JSON.parse(text) as { prompt: string; models: [string, string] }));
  });
}

const server = createServer((incoming, outgoing) => {
  if (incoming.method === 'POST' && incoming.url === '/api/v1/duels') {
    void readJson(incoming).then(({ prompt, models }) => {
      const id = String(nextId++);
      const duel: Duel = {
        id,
        frames: [],
        started: { a: false, b: false },
        sidesDone: 0,
        viewer: undefined,
        sent: 0,
        lastWriteAt: Number.NEGATIVE_INFINITY,
        timer: undefined,
        ended: false,
      };
      duels.set(id, duel);
      streamSide(duel, 'a', models[0], prompt);
      streamSide(duel, 'b', models[1], prompt);
      outgoing.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id, turn: 1 }));
    });
    return;
  }
  const match = incoming.url?.match(/^\/api\/v1\/duels\/(\d+)\/stream$/);
  const duel = match ? duels.get(match[1]!) : undefined;
  if (duel === undefined) {
    outgoing.writeHead(404).end();
    return;
  }
  outgoing.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  outgoing.flushHeaders();
  duel.viewer = outgoing;
  flush(duel);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`{"url":"http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}"}\n`);
});
process.on('SIGTERM', () => process.exit(0));
