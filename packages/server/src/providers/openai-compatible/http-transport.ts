import { type ClientRequest, Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** What the client needs of an HTTP exchange: the status, the headers and the body as it arrives. */
export interface TransportResponse {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
  /** Reads the whole body as text (error answers). */
  text(): Promise<string>;
}

export type Transport = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string; signal?: AbortSignal },
) => Promise<TransportResponse>;

// Keep-alive pools shared by every model of a host: a duel opens two streams, often to the same router.
const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: Infinity }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: Infinity }),
};

/**
 * Node's own HTTP client. Token streaming is the arena's hot path, and `fetch` wraps every chunk in
 * web streams on top of a WebAssembly parser; plain `http.request` reads the same bytes for a
 * fraction of the CPU (docs/decisions/0002).
 */
export const nodeHttpTransport: Transport = (url, init) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const request = (secure ? httpsRequest : httpRequest)(
      target,
      {
        method: init.method,
        headers: { ...init.headers, 'content-length': Buffer.byteLength(init.body) },
        agent: secure ? agents.https : agents.http,
      },
      (response) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers))
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({
          status: response.statusCode ?? 0,
          headers,
          body: response,
          text: async () => {
            const chunks: Buffer[] = [];
            for await (const chunk of response) chunks.push(chunk as Buffer);
            return Buffer.concat(chunks).toString('utf8');
          },
        });
      },
    );
    request.setNoDelay(true);
    request.once('error', reject);
    abortWith(request, init.signal);
    request.end(init.body);
  });

/**
 * Destroys the request (and so its response) when `signal` aborts. Node's own `signal` option goes
 * through `addAbortSignal`, which watches the request with `finished()` and cost about 40 µs per
 * upstream request in the arena's profile; one listener, removed when the request closes, does the same here.
 */
function abortWith(request: ClientRequest, signal: AbortSignal | undefined): void {
  if (signal === undefined) return;
  const abort = () => void request.destroy(abortError(signal));
  if (signal.aborted) return abort();
  signal.addEventListener('abort', abort, { once: true });
  request.once('close', () => signal.removeEventListener('abort', abort));
}

const abortError = (signal: AbortSignal) =>
  Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' });

/** A transport over a `fetch` function, for tests that replay recorded vendor streams. */
export function fetchTransport(fetchFunction: typeof fetch): Transport {
  return async (url, init) => {
    const response = await fetchFunction(url, init);
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: response.body ?? (async function* () {})(),
      text: () => response.text(),
    };
  };
}
