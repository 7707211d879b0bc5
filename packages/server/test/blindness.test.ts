import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './test-db';
import { type TestArena, TEST_MODELS, startTestArena } from './test-arena';

/** Every string that would tell a visitor which model answered. */
const identities = TEST_MODELS.flatMap((model) => [
  model.id,
  model.name,
  model.organisation,
  model.upstream,
  model.upstream.split('/')[0]!,
]);

function leaks(text: string): string[] {
  const lower = text.toLowerCase();
  return identities.filter((identity) => lower.includes(identity.toLowerCase()));
}

describe.each(DIALECTS)('blindness ($name)', (dialect) => {
  let harness: TestArena;
  beforeAll(async () => {
    harness = await startTestArena(dialect);
  });
  afterAll(() => harness.close());

  it('no byte sent before the vote names a model or its vendor, over whole duels, failures included', async () => {
    const { client, fake } = harness;
    fake.defaultBehaviour = { tokensPerSecond: 500 };
    const duelIds: string[] = [];
    const playDuel = async (body: Record<string, unknown>) => {
      const created = await client.request('POST', '/api/v1/duels', body);
      expect(created.status).toBe(201);
      duelIds.push(created.json.id);
      await client.stream(created.json.id);
      await client.request('GET', `/api/v1/duels/${created.json.id}`);
      return created.json.id as string;
    };
    // Complete duels in every mode, with a follow-up, reactions and the error paths of a finished duel.
    for (const mode of ['random', 'small-models', 'big-vs-small', 'reasoning']) {
      const id = await playDuel({ prompt: `Bonjour (${mode})`, mode });
      await client.request('POST', `/api/v1/duels/${id}/messages`, { prompt: 'Et ensuite ?' });
      await client.stream(id, { turn: 2 });
      await client.stream(id, { turn: 1, lastEventId: '3' });
      await client.request('POST', `/api/v1/duels/${id}/reactions`, { side: 'a', turn: 2, value: 'like', tags: ['useful'] });
      await client.request('POST', `/api/v1/duels/${id}/reactions`, { side: 'b', turn: 9, value: 'like' });
      await client.request('POST', `/api/v1/duels/${id}/messages`, { prompt: '' });
    }
    // Failures: an HTTP error on one model, a cut stream on another, a model replaced before its first token.
    fake.behave(TEST_MODELS[0].upstream, { httpStatus: 500, failTimes: 100 });
    fake.behave(TEST_MODELS[1].upstream, { cutAfterChunks: 2 });
    await playDuel({ prompt: 'échec', mode: 'custom', models: [TEST_MODELS[0].id, TEST_MODELS[2].id] });
    await playDuel({ prompt: 'coupure', mode: 'custom', models: [TEST_MODELS[1].id, TEST_MODELS[3].id] });
    for (let index = 0; index < 4; index += 1) await playDuel({ prompt: `remplacement ${index}`, mode: 'big-vs-small' });
    const failed = duelIds.at(-5)!;
    await client.request('POST', `/api/v1/duels/${failed}/vote`, { choice: 'a' });
    await client.request('POST', `/api/v1/duels/${failed}/reactions`, { side: 'a', turn: 1, value: 'like' });
    expect((await harness.arena.store.duels.listUpstreamErrors(failed)).length).toBeGreaterThan(0);

    expect(client.received.length).toBeGreaterThan(40);
    for (const response of client.received) {
      expect(leaks(`${response.headers}\n${response.body}`), `${response.status} ${response.body.slice(0, 200)}`).toEqual([]);
    }

    // The check can see a leak: after the vote, the reveal names the models.
    const ready = duelIds[0]!;
    const vote = await client.request('POST', `/api/v1/duels/${ready}/vote`, { choice: 'tie' });
    expect(vote.status).toBe(200);
    expect(leaks(JSON.stringify(vote.json)).length).toBeGreaterThan(0);
  });
});
