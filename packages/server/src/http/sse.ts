import type { ServerResponse } from 'node:http';
import { STREAM_PROTOCOL_VERSION } from '@agora/contract';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Frame } from '../services/turn-stream';
import type { AppEnv } from './app-env';

/** One frame in the SSE wire format: the event type as `event:`, the other fields as JSON `data:`, the frame id as `id:`. */
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
 * Sends turn frames as server-sent events. Behind the Node server it writes straight to the socket,
 * each batch of waiting frames in one write and with back-pressure, since this is the hottest path of
 * the arena (one write per token per side per viewer). In-process requests (`app.request`) get the
 * same bytes through Hono's `streamSSE`.
 */
export function sendFrames(c: Context<AppEnv>, frames: (signal: AbortSignal) => AsyncIterable<Frame[]>, onClose: () => void): Response | Promise<Response> {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (!outgoing) {
    for (const [name, value] of Object.entries(streamHeaders)) c.header(name, value);
    return streamSSE(c, async (stream) => {
      try {
        for await (const batch of frames(c.req.raw.signal)) await stream.write(batch.map(encodeFrame).join(''));
      } finally {
        onClose();
      }
    });
  }
  const closed = new AbortController();
  outgoing.once('close', () => closed.abort());
  // Not through c.res: touching it would make Hono rebuild the answer and lose the marker.
  const cookie = c.get('newVisitorCookie');
  outgoing.writeHead(200, { 'x-request-id': c.get('requestId'), ...(cookie ? { 'set-cookie': cookie } : {}), ...streamHeaders });
  outgoing.flushHeaders();
  void pipe(outgoing, frames(closed.signal), closed.signal).finally(onClose);
  return alreadySent();
}

async function pipe(outgoing: ServerResponse, batches: AsyncIterable<Frame[]>, closed: AbortSignal): Promise<void> {
  try {
    for await (const batch of batches) {
      if (closed.aborted) return;
      const text = batch.length === 1 ? encodeFrame(batch[0]!) : batch.map(encodeFrame).join('');
      if (!outgoing.write(text)) await new Promise<void>((resolve) => {
        outgoing.once('drain', resolve);
        closed.addEventListener('abort', () => resolve(), { once: true });
      });
    }
  } finally {
    if (!outgoing.writableEnded) outgoing.end();
  }
}
