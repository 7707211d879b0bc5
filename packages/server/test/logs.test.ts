import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { type Logger, pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from './test-db';
import { TEST_MODELS, startTestArena, until } from './test-arena';

/** A logger whose JSON lines are kept, parsed, for assertions. */
function collectedLogs(): { lines: Record<string, any>[]; logger: Logger } {
  const lines: Record<string, any>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, sink) };
}

describe('logs', () => {
  it('are JSON lines: each request with its id, each upstream call with the provider metadata', async () => {
    const { lines, logger } = collectedLogs();
    const harness = await startTestArena(DIALECTS[0]!, { logger });
    try {
      harness.fake.behave(TEST_MODELS[0].upstream, { httpStatus: 503, failTimes: 5 });
      const created = await harness.client.request(
        'POST',
        '/api/v1/duels',
        { prompt: 'x', mode: 'custom', models: [TEST_MODELS[0].id, TEST_MODELS[2].id] },
        { 'x-request-id': 'trace-123' },
      );
      await harness.client.stream(created.json.id);
      const fine = await harness.client.request('POST', '/api/v1/duels', {
        prompt: 'x',
        mode: 'custom',
        models: [TEST_MODELS[3].id, TEST_MODELS[2].id],
      });
      await harness.client.stream(fine.json.id);
    } finally {
      await harness.close();
    }
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'request', requestId: 'trace-123', method: 'POST', route: '/api/v1/duels', status: 201 }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'upstream call failed',
        upstream: expect.objectContaining({ model: TEST_MODELS[0].id, kind: 'http_error', statusCode: 503 }),
      }),
    );
    const completed = lines.find((line) => line.msg === 'upstream call' && line.upstream.model === TEST_MODELS[3].id);
    expect(completed?.upstream).toMatchObject({
      provider: 'openai-compatible',
      status: 'complete',
      outputTokens: expect.any(Number),
      metadata: { servedModel: TEST_MODELS[3].upstream },
    });
  });

  it('answer HEAD on a stream with its head alone, and nothing printed (it was ERR_HTTP_HEADERS_SENT on every HEAD)', async () => {
    const { lines, logger } = collectedLogs();
    const harness = await startTestArena(DIALECTS[0]!, { logger });
    const printed: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const error = console.error;
    process.stderr.write = (chunk: string | Uint8Array, ...rest: never[]) => {
      printed.push(String(chunk));
      return write(chunk, ...rest);
    };
    console.error = (...args: unknown[]) => printed.push(args.map(String).join(' '));
    try {
      const created = await harness.client.request('POST', '/api/v1/duels', { prompt: 'x' });
      const cookie = harness.client.visitorCookie ?? '';
      for (const when of ['while it runs', 'once it ended']) {
        if (when === 'once it ended') await harness.client.stream(created.json.id);
        const head = await fetch(`${harness.baseUrl}/api/v1/duels/${created.json.id}/stream`, { method: 'HEAD', headers: { cookie } });
        expect(head.status, when).toBe(200);
        expect(head.headers.get('content-type'), when).toMatch(/^text\/event-stream/);
        expect(await head.text(), when).toBe('');
      }
      const unknown = await fetch(`${harness.baseUrl}/api/v1/duels/no-such-duel/stream`, { method: 'HEAD', headers: { cookie } });
      expect(unknown.status).toBe(404);
      // The adapter prints asynchronously, after the answer: give it the time to.
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      process.stderr.write = write;
      console.error = error;
      await harness.close();
    }
    expect(printed.filter((text) => /ERR_HTTP_HEADERS_SENT|Error/.test(text))).toEqual([]);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });

  it('count a body the client cut off as the client’s error, not as an unhandled 500', async () => {
    const { lines, logger } = collectedLogs();
    const harness = await startTestArena(DIALECTS[0]!, { logger });
    try {
      const { port } = new URL(harness.baseUrl);
      // A chunked body that stops half-way: the client goes away before the end.
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            'POST /api/v1/duels HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n{"prompt\r\n',
          );
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 100);
        });
      });
      await until(
        async () => lines.filter((line) => line.msg === 'request' && line.method === 'POST'),
        (requests) => requests.length > 0,
      );
    } finally {
      await harness.close();
    }
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(lines.find((line) => line.msg === 'request' && line.method === 'POST')).toMatchObject({ status: 400 });
  });
});
