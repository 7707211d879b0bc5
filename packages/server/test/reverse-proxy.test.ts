import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATOR, annotatorAnswer, catalogueWithAnnotatorYaml } from './annotator-fixture';
import { FakeUpstream } from './fake-upstream/fake-upstream';
import { type ProxiedInstances, canRunBehindNginx, startProxiedInstances } from './proxied-instances';
import { DIALECTS } from './test-db';
import { ArenaClient, until } from './test-arena';

/**
 * Two `agora serve` processes on one PostgreSQL behind a real nginx from Debian's packages, round
 * robin: whole duels through the proxy, streams included, and each background job once.
 */
const postgres = DIALECTS.find((dialect) => dialect.name === 'postgres');

describe.runIf(canRunBehindNginx(postgres))('two instances behind nginx (round robin) on one PostgreSQL', () => {
  let fake: FakeUpstream;
  let proxied: ProxiedInstances;
  let proxyUrl: string;
  let logs: string[][];

  beforeAll(async () => {
    fake = await new FakeUpstream().start();
    fake.defaultBehaviour = { tokensPerSecond: 60, text: Array.from({ length: 30 }, (_, index) => `mot${index}`).join(' ') };
    fake.behave(ANNOTATOR.upstream, { tokensPerSecond: 0, text: annotatorAnswer });
    proxied = await startProxiedInstances(postgres!, {
      count: 2,
      modelsYaml: catalogueWithAnnotatorYaml(fake.baseUrl),
      environment: { AGORA_ANNOTATION_MODEL: ANNOTATOR.id, AGORA_POSTPROCESS_EVERY_S: '0.2', AGORA_INTEGRITY_MIN_VOTE_S: '0' },
    });
    proxyUrl = proxied.proxyUrl;
    logs = proxied.instances.map((instance) => instance.logs);
  }, 60_000);

  afterAll(async () => {
    await proxied?.close();
    await fake?.stop();
  });

  it('plays whole duels through the proxy, streams included, and annotates each conversation once', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 4; index++) {
      const visitor = new ArenaClient(proxyUrl);
      const created = await visitor.request('POST', '/api/v1/duels', { prompt: `Conversation ${index}` });
      expect(created.status).toBe(201);
      const first = await visitor.stream(created.json.id);
      expect(first.at(-1)?.event).toMatchObject({ type: 'turn-end', status: 'complete' });
      expect(first.filter((frame) => frame.event.type === 'text-delta').length).toBeGreaterThan(10);
      expect((await visitor.request('POST', `/api/v1/duels/${created.json.id}/messages`, { prompt: 'Et après ?' })).status).toBe(201);
      const second = await visitor.stream(created.json.id, { turn: 2 });
      expect(second.at(-1)?.event).toMatchObject({ type: 'turn-end', status: 'complete' });
      expect((await visitor.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'a' })).status).toBe(200);
      ids.push(created.json.id as string);
    }
    // Both instances served requests: the proxy spread them.
    for (const lines of logs) expect(lines.filter((line) => line.includes('"msg":"request"')).length).toBeGreaterThan(3);
    for (const lines of logs) expect(lines.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
    // Post-processing ran once per conversation, whichever instance held the lease.
    await until(
      async () => fake.requestsFor(ANNOTATOR.upstream).filter((request) => request.completed).length,
      (count) => count >= ids.length,
      30_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(fake.requestsFor(ANNOTATOR.upstream)).toHaveLength(ids.length);
  }, 90_000);
});
