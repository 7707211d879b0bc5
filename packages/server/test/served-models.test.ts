import type { LeaderboardBody } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './test-db';
import { TEST_MODELS, type TestArena, startTestArena } from './test-arena';

const TOKEN = 'served-models-admin-token-0123';
const upstreamOf = (id: string) => TEST_MODELS.find((model) => model.id === id)!.upstream;

/**
 * A provider that answers with another model than the catalogue asks for (a router's fallback):
 * the answer is flagged, shown to operators in the admin API and /metrics, and the duel's vote stays
 * out of the leaderboard like an identity leak.
 */
describe.each(DIALECTS)('a provider serving another model ($name)', (dialect) => {
  let harness: TestArena;
  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      // Custom mode picks the pair; AGORA_LEADERBOARD_CUSTOM_ON_MAIN ranks it on the main board.
      environment: {
        AGORA_ADMIN_TOKEN: TOKEN,
        AGORA_LEADERBOARD_MIN_VOTES: '1',
        AGORA_INTEGRITY_MIN_VOTE_S: '0',
        AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1',
      },
    });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
  });
  afterAll(() => harness.close());

  it('is flagged per answer, listed for operators, counted in /metrics, and its vote is left out of the ranking', async () => {
    const { client, fake, arena } = harness;
    // Miravel's provider answers with a release of the same model (not a discrepancy), Kestrix's with another model.
    fake.behave(upstreamOf('miravel-24b'), { tokensPerSecond: 0, servedModel: `${upstreamOf('miravel-24b')}-20251104` });
    fake.behave(upstreamOf('kestrix-8b'), { tokensPerSecond: 0, servedModel: 'quorvex/kestrix-nano-lite' });
    const vote = async (models: string[], choice: 'a' | 'b') => {
      const created = await client.request('POST', '/api/v1/duels', { prompt: 'Bonjour', mode: 'custom', models });
      await client.stream(created.json.id);
      expect((await client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice })).status).toBe(200);
      return created.json.id as string;
    };
    const substituted = await vote(['kestrix-8b', 'zephyrine-405b'], 'a');
    const honest = await vote(['miravel-24b', 'zephyrine-405b'], 'a');

    const sides = await arena.store.duels.listSides(substituted);
    expect(sides.find((side) => side.modelId === 'kestrix-8b')).toMatchObject({
      servedModel: 'quorvex/kestrix-nano-lite',
      servedModelMismatch: true,
    });
    expect(sides.find((side) => side.modelId === 'zephyrine-405b')).toMatchObject({ servedModelMismatch: false });
    expect((await arena.store.duels.listSides(honest)).every((side) => !side.servedModelMismatch)).toBe(true);

    const admin = { authorization: `Bearer ${TOKEN}` };
    const listed = await client.request('GET', '/api/v1/admin/served-models?hours=1', undefined, admin);
    expect(listed.status).toBe(200);
    expect(listed.json.models).toEqual([{ model: 'kestrix-8b', served: 'quorvex/kestrix-nano-lite', answers: 1 }]);
    expect((await client.request('GET', '/api/v1/admin/served-models')).status).toBe(401);
    const metrics = await fetch(`${harness.baseUrl}/metrics`, { headers: admin });
    expect(await metrics.text()).toMatch(/agora_served_model_mismatches_total\{model="kestrix-8b"\} 1/);

    // Only the honest duel counts: Kestrix has no vote, Miravel one.
    arena.leaderboardRefresh.trigger();
    await arena.leaderboardRefresh.idle();
    const board = (await client.request('GET', '/api/v1/leaderboard')).json as LeaderboardBody;
    expect(board.models.find((row) => row.model === 'kestrix-8b')).toBeUndefined();
    expect(board.models.find((row) => row.model === 'miravel-24b')).toMatchObject({ n_battles: 1 });
  });
});
