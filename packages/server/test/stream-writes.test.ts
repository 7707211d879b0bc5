import { request } from 'node:http';
import { readStreamFrames } from '@agora/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { DELTA_FLUSH_INTERVAL_MS } from '../src/http/sse';
import { DIALECTS } from './test-db';
import { type TestArena, startTestArena } from './test-arena';

/** The stream's body as the socket delivered it: one entry per chunk read. */
function readChunks(baseUrl: string, duelId: string, cookie: string | undefined): Promise<string[]> {
  return new Promise((resolve, reject) => {
    request(`${baseUrl}/api/v1/duels/${duelId}/stream`, { headers: cookie ? { cookie } : {} }, (response) => {
      const chunks: string[] = [];
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => chunks.push(chunk));
      response.on('end', () => resolve(chunks));
      response.on('error', reject);
    })
      .once('error', reject)
      .end();
  });
}

describe.each(DIALECTS)('stream writes ($name)', (dialect) => {
  let harness: TestArena | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('gathers deltas into fewer writes, frames unchanged', async () => {
    harness = await startTestArena(dialect);
    // 200 tokens/s per side: several deltas of each side arrive in one flush interval.
    expect(DELTA_FLUSH_INTERVAL_MS).toBeGreaterThanOrEqual(10);
    harness.fake.defaultBehaviour = {
      firstTokenDelayMs: 150,
      tokensPerSecond: 200,
      text: Array.from({ length: 80 }, (_, index) => `m${index}`).join(' '),
    };
    const created = await harness.client.request('POST', '/api/v1/duels', { prompt: 'beaucoup de mots' });
    const chunks = await readChunks(harness.baseUrl, created.json.id, harness.client.visitorCookie);

    const body = chunks.join('');
    const frames = [];
    for await (const frame of readStreamFrames(new Blob([body]).stream())) frames.push(frame);
    expect(frames).toEqual(await harness.client.stream(created.json.id));
    const deltas = frames.filter((frame) => frame.event.type === 'text-delta');
    expect(deltas.length).toBeGreaterThanOrEqual(2 * 80);

    // Without gathering there would be about one write per delta.
    expect(chunks.length).toBeLessThan(deltas.length / 3);
  });
});
