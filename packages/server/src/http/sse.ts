import type { ServerResponse } from 'node:http';
import { STREAM_PROTOCOL_VERSION } from '@agora/contract';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Frame, TurnStream } from '../services/turn-stream';
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
 * Sends a turn's frames from `afterId` on as server-sent events, until `turn-end` or until the client
 * goes away. Behind the Node server it writes straight to the socket, since this is the hottest path of
 * the arena (every token of both sides, for every viewer): the frames that arrived during one turn of
 * the event loop go out in one write (`setImmediate`), so the two sides' tokens and a reconnecting
 * client's backlog share a write, and a slow client gets what it missed in one write once it drains.
 * In-process requests (`app.request`) get the same bytes through Hono's `streamSSE`.
 */
export function sendFrames(c: Context<AppEnv>, stream: TurnStream, afterId: number, onClose: () => void): Response | Promise<Response> {
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
  outgoing.writeHead(200, { 'x-request-id': c.get('requestId'), ...(cookie ? { 'set-cookie': cookie } : {}), ...streamHeaders });
  outgoing.flushHeaders();
  pipeFrames(outgoing, stream, afterId, onClose);
  return alreadySent();
}

function pipeFrames(outgoing: ServerResponse, stream: TurnStream, afterId: number, onClose: () => void): void {
  let next = Math.max(0, afterId);
  let scheduled = false;
  let waitingForDrain = false;
  let finished = false;
  const flush = () => {
    scheduled = false;
    if (finished || waitingForDrain) return;
    const frames = stream.snapshot();
    if (next < frames.length) {
      let text = '';
      for (let index = next; index < frames.length; index += 1) text += encodeFrame(frames[index]!);
      next = frames.length;
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
  const schedule = () => {
    if (scheduled || finished) return;
    scheduled = true;
    setImmediate(flush);
  };
  const stopListening = stream.onPush(schedule);
  const finish = () => {
    if (finished) return;
    finished = true;
    stopListening();
    if (!outgoing.writableEnded) outgoing.end();
    onClose();
  };
  outgoing.once('close', finish);
  flush();
}
