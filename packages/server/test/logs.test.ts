import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from './test-db';
import { TEST_MODELS, startTestArena } from './test-arena';

describe('logs', () => {
  it('are JSON lines: each request with its id, each upstream call with the provider metadata', async () => {
    const lines: Record<string, any>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const harness = await startTestArena(DIALECTS[0]!, { logger: pino({ level: 'info' }, sink) });
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
});
