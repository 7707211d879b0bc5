import { type StreamEvent, parseStreamFrame } from './stream-events';

/** One frame read from a duel stream. */
export interface ReceivedFrame {
  id: string | undefined;
  event: StreamEvent;
}

/**
 * Reads a `text/event-stream` body (per the WHATWG rules: `event:`, `data:`, `id:` fields, blank
 * line dispatch, comments ignored) and yields each frame parsed with the shared event schema.
 * Frames that are not ours are skipped, never trusted.
 */
export async function* readStreamFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<ReceivedFrame> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          const parsed = data.length > 0 ? parseStreamFrame(event || 'message', data.join('\n')) : null;
          if (parsed) yield { id, event: parsed };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const content = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = content;
        else if (field === 'data') data.push(content);
        else if (field === 'id' && !content.includes('\0')) id = content;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
