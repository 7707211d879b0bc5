import type { ServerResponse } from 'node:http';
import { STREAM_PROTOCOL_VERSION } from '@agora/contract';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Frame, TurnStream } from '../services/duels/turn-stream';
import type { AppEnv } from './app-env';

/**
 * One frame in the SSE wire format: the event type as `event:`, the other fields as JSON `data:`, the
 * frame id as `id:`. Encoded at each write, not kept: a kept text per frame cost about 100 KB per live
 * duel (peak memory at 500 concurrent duels 406 MB against 308 MB), for turns that rarely have more
 * than one viewer.
 */
export function encodeFrame(frame: Frame): string {
  const { type, ...data } = frame.event;
  return `event: ${type}\ndata: ${JSON.stringify(data)}\nid: ${frame.id}\n\n`;
}

// Captured before @hono/node-server swaps the global Response for its own: only a native Response
// with this header tells it that the handler wrote the answer itself.
const NativeResponse = globalThis.Response;
const alreadySent = () => new NativeResponse(null, { headers: { 'x-hono-already-sent': 'true' } });

const streamHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  // Proxies such as nginx must not hold back the deltas.
  'x-accel-buffering': 'no',
  'x-agora-stream-version': STREAM_PROTOCOL_VERSION,
};

/**
 * Deltas after a side's first go out at most this often per connection: a reader cannot tell 40
 * updates a second from 60, but every write is a system call, a TCP segment and a wake-up of the
 * browser, for each token of both sides (the arena's hottest path). The first delta of each side and
 * every other event (turn start and end, errors) are written at once, so time to first token and
 * the end of a turn are never delayed.
 */
export const DELTA_FLUSH_INTERVAL_MS = 25;

/**
 * Sends a turn's frames from `afterId` on as server-sent events, until `turn-end` or until the client
 * goes away. Behind the Node server it writes straight to the socket, since this is the hottest path of
 * the arena (every token of both sides, for every viewer): frames that can wait are gathered for up to
 * {@link DELTA_FLUSH_INTERVAL_MS} and go out with the next frame that cannot; a reconnecting client's
 * backlog goes in one write, and a slow client gets what it missed in one write once it drains.
 * In-process requests (`app.request`) get the same bytes through Hono's `streamSSE`.
 */
export function sendFrames(c: Context<AppEnv>, stream: TurnStream, afterId: number, onClose: () => void): Response | Promise<Response> {
  // HEAD asks for the head alone: no frames, and no head of our own (the Node adapter writes a HEAD
  // answer's head itself: writing it here too threw ERR_HTTP_HEADERS_SENT on every HEAD).
  if (c.req.method === 'HEAD') {
    onClose();
    return c.body(null, 200, streamHeaders);
  }
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (!outgoing) {
    for (const [name, value] of Object.entries(streamHeaders)) c.header(name, value);
    return streamSSE(c, async (sse) => {
      try {
        for await (const batch of stream.follow(afterId, c.req.raw.signal)) await sse.write(batch.map(encodeFrame).join(''));
      } finally {
        onClose();
      }
    });
  }
  // Not through c.res: touching it would make Hono rebuild the answer and lose the marker.
  const cookie = c.get('newVisitorCookie');
  outgoing.writeHead(200, {
    ...c.get('securityHeaders'),
    'x-request-id': c.get('requestId'),
    ...(cookie ? { 'set-cookie': cookie } : {}),
    ...streamHeaders,
  });
  outgoing.flushHeaders();
  pipeFrames(outgoing, stream, afterId, onClose);
  return alreadySent();
}

/** Writes a turn's frames to a Node response as they come (see {@link sendFrames}); exported for its unit test. */
export function pipeFrames(outgoing: ServerResponse, stream: TurnStream, afterId: number, onClose: () => void): void {
  let next = Math.max(0, afterId);
  let timer: NodeJS.Timeout | undefined;
  let lastWriteAt = Number.NEGATIVE_INFINITY;
  let waitingForDrain = false;
  let finished = false;
  // Sides whose deltas this connection has already sent (a reconnecting client's backlog counts).
  const started = { a: false, b: false };
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (finished || waitingForDrain) return;
    const frames = stream.snapshot();
    if (next < frames.length) {
      let text = '';
      for (let index = next; index < frames.length; index += 1) {
        const frame = frames[index]!;
        if (frame.event.type === 'text-delta' || frame.event.type === 'reasoning-delta') started[frame.event.side] = true;
        text += encodeFrame(frame);
      }
      next = frames.length;
      lastWriteAt = performance.now();
      if (!outgoing.write(text)) {
        waitingForDrain = true;
        outgoing.once('drain', () => {
          waitingForDrain = false;
          flush();
        });
        return;
      }
    }
    if (stream.isEnded) finish();
  };
  const onPush = () => {
    if (finished || waitingForDrain) return;
    const frames = stream.snapshot();
    const newest = frames[frames.length - 1]!.event;
    const canWait = (newest.type === 'text-delta' || newest.type === 'reasoning-delta') && started[newest.side];
    const wait = lastWriteAt + DELTA_FLUSH_INTERVAL_MS - performance.now();
    if (canWait && wait > 0) {
      timer ??= setTimeout(flush, wait);
      return;
    }
    // Written now, not after the other callbacks of this turn of the event loop: on a busy arena
    // those can hold a first token back for milliseconds. Writes of one tick still leave together.
    flush();
  };
  const stopListening = stream.onPush(onPush);
  const finish = () => {
    if (finished) return;
    finished = true;
    stopListening();
    clearTimeout(timer);
    if (!outgoing.writableEnded) outgoing.end();
    onClose();
  };
  outgoing.once('close', finish);
  flush();
}
