import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './test-db';
import { ArenaClient, type TestArena, startTestArena, until } from './test-arena';

describe.each(DIALECTS)('cohorts set by the host a visitor came through ($name)', (dialect) => {
  let harness: TestArena;
  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      environment: {
        AGORA_POSTPROCESS_EVERY_S: '0.1',
        AGORA_COHORT_HOSTS: 'Pilot.Localhost=pilot, ecole.localhost:8080=school-2026',
        AGORA_PRIVATE_COHORTS: 'pilot',
      },
    });
  });
  afterAll(() => harness.close());

  it('labels duels started through a configured host, and a private cohort stays out of the open datasets', async () => {
    const play = async (host: string | undefined) => {
      // fetch() does not let a request choose its Host header; node:http does, as a browser on that host would send it.
      const created = await new Promise<{ id: string; cookie: string }>((resolve, reject) => {
        const body = JSON.stringify({ prompt: 'Bonjour' });
        const call = request(
          `${harness.baseUrl}/api/v1/duels`,
          { method: 'POST', headers: { 'content-type': 'application/json', ...(host ? { host } : {}) } },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () =>
              resolve({ id: (JSON.parse(text) as { id: string }).id, cookie: response.headers['set-cookie']![0]!.split(';')[0]! }),
            );
          },
        );
        call.once('error', reject);
        call.end(body);
      });
      const client = new ArenaClient(harness.baseUrl, created.cookie);
      await client.stream(created.id);
      expect((await client.request('POST', `/api/v1/duels/${created.id}/vote`, { choice: 'a' })).status).toBe(200);
      return created.id;
    };
    const pilot = await play('pilot.localhost');
    const school = await play('ecole.localhost:8080');
    const public_ = await play(undefined);
    const cohortOf = async (id: string) => (await harness.arena.store.duels.findById(id))?.cohort ?? null;
    expect([await cohortOf(pilot), await cohortOf(school), await cohortOf(public_)]).toEqual(['pilot', 'school-2026', null]);
    for (const id of [pilot, school, public_])
      await until(
        () => harness.arena.store.annotations.find(id),
        (found) => found?.status === 'done',
      );
    expect(await harness.arena.store.datasets.exclusionCounts(['pilot'])).toMatchObject({ conversations: 3, privateCohort: 1 });
    const exportable: string[] = [];
    for await (const batch of harness.arena.store.datasets.exportableConversations({ privateCohorts: ['pilot'], batchSize: 10 }))
      exportable.push(...batch.map((conversation) => conversation.duelId));
    expect(exportable.sort()).toEqual([school, public_].sort());
  });
});
