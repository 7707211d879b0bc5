import type { LeaderboardBody } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './test-db';
import { ANNOTATOR, annotatorAnswer, catalogueWithAnnotator } from './annotator-fixture';
import { type TestArena, TEST_MODELS, startTestArena, until } from './test-arena';

describe.each(DIALECTS)('the live leaderboard ($name)', (dialect) => {
  let harness: TestArena;
  beforeAll(async () => {
    // Post-processing off: these views take their language from the visitor's locale.
    harness = await startTestArena(dialect, {
      environment: {
        AGORA_POSTPROCESS: '0',
        // The test picks its pairs (custom mode) and ranks them on the main board, which by default leaves them to their own view.
        AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1',
        // The test votes as soon as the answers end: reading time is not what is tested here.
        AGORA_INTEGRITY_MIN_VOTE_S: '0',
        AGORA_LEADERBOARD_EVERY_VOTES: '4',
        AGORA_LEADERBOARD_EVERY_S: '1',
        AGORA_LEADERBOARD_MIN_VOTES: '6',
        AGORA_LEADERBOARD_MIN_INTERVAL_S: '0.2',
      },
    });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
  });
  afterAll(() => harness.close());

  /** Plays one duel and votes for the stronger model (the lower index in TEST_MODELS), so that the order is known. */
  async function playAndVote(first: number, second: number, locale: string, mode: 'custom' = 'custom') {
    const { client } = harness;
    const models = [TEST_MODELS[first]!.id, TEST_MODELS[second]!.id];
    const created = await client.request('POST', '/api/v1/duels', { prompt: 'Bonjour', mode, models, locale });
    await client.stream(created.json.id);
    const duel = (await harness.arena.store.duels.findById(created.json.id))!;
    const choice = duel.modelA === models[0] ? 'a' : 'b';
    const vote = await client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice });
    expect(vote.status).toBe(200);
  }
  const get = async (query = '') => (await harness.client.request('GET', `/api/v1/leaderboard${query}`)).json as LeaderboardBody;

  it('follows the votes within K votes or T seconds, per language and per mode once they have enough votes', async () => {
    const empty = await get();
    expect(empty.models).toEqual([]);
    expect(empty.min_votes).toBe(6);

    for (const [first, second] of [
      [0, 1],
      [1, 2],
      [0, 2],
      [2, 3],
      [1, 3],
      [0, 3],
      [0, 1],
      [1, 2],
    ])
      await playAndVote(first!, second!, 'fr');
    const first = await until(
      () => get(),
      (body) => body.n_votes === 8,
    );
    expect(first.generated_at).not.toBeNull();
    expect(first.models.map((row) => row.model).slice(0, 4)).toEqual(TEST_MODELS.slice(0, 4).map((model) => model.id));
    const top = first.models[0]!;
    expect(top).toMatchObject({ name: TEST_MODELS[0].name, organisation: TEST_MODELS[0].organisation, n_battles: 4, wins: 4, losses: 0 });
    expect(top.wh_per_1000_tokens!.min).toBeGreaterThan(0);
    expect(top.mean_energy_wh_per_duel!.min).toBeGreaterThan(0);
    expect(first.available.languages).toEqual([{ value: 'fr', n_votes: 8 }]);
    expect(first.available.modes).toEqual([{ value: 'custom', n_votes: 8 }]);

    const french = await get('?language=fr');
    expect(french.n_votes).toBe(8);
    expect(french.models.length).toBe(4);
    const controlled = await get('?style=controlled');
    expect(controlled.models.length).toBe(4);
    expect(controlled.style_coefficients).not.toBeNull();
    const byMode = await get('?mode=custom');
    expect(byMode.models.length).toBe(4);

    const english = await get('?language=en');
    expect(english).toMatchObject({ n_votes: 0, models: [] });

    // A reversal in English: the view appears once it has enough votes, and the overall ranking moves.
    for (const [winner, loser] of [
      [3, 0],
      [3, 1],
      [3, 2],
      [3, 0],
      [3, 1],
      [3, 2],
    ])
      await playAndVote(winner!, loser!, 'en');
    const later = await until(
      () => get('?language=en'),
      (body) => body.n_votes === 6,
    );
    expect(later.models[0]!.model).toBe(TEST_MODELS[3].id);
    const overall = await until(
      () => get(),
      (body) => body.n_votes === 14,
    );
    expect(overall.generated_at! > first.generated_at!).toBe(true);
    expect(overall.models.find((row) => row.model === TEST_MODELS[3].id)!.rating).toBeGreaterThan(
      first.models.find((row) => row.model === TEST_MODELS[3].id)!.rating,
    );

    const history = await harness.client.request('GET', `/api/v1/leaderboard/history?model=${TEST_MODELS[3].id}`);
    expect(history.json.points.length).toBeGreaterThanOrEqual(2);
    expect(history.json.points.at(-1).n_votes).toBe(14);
  });

  it('leaves out votes whose models named themselves', async () => {
    const before = (await get()).n_votes;
    harness.fake.behave(TEST_MODELS[4].upstream, { text: 'Je suis Sollary Think.' });
    await playAndVote(4, 5, 'fr');
    await harness.arena.leaderboardRefresh.idle();
    harness.arena.leaderboardRefresh.trigger();
    await harness.arena.leaderboardRefresh.idle();
    expect((await get()).n_votes).toBe(before);
  });

  it('rejects an unknown view parameter', async () => {
    const response = await harness.client.request('GET', '/api/v1/leaderboard?colour=red');
    expect(response).toMatchObject({ status: 400, json: { error: { code: 'invalid_request' } } });
  });
});

describe.each(DIALECTS)('reactions as matches, when the operator turns them on ($name)', (dialect) => {
  it('ranks from likes and dislikes alone', async () => {
    const harness = await startTestArena(dialect, {
      environment: {
        AGORA_LEADERBOARD_REACTIONS: '1',
        // The test picks its pairs (custom mode) and ranks them on the main board, which by default leaves them to their own view.
        AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1',
        AGORA_LEADERBOARD_MIN_VOTES: '3',
        AGORA_LEADERBOARD_MIN_INTERVAL_S: '0',
        AGORA_INTEGRITY_MIN_VOTE_S: '0',
      },
    });
    try {
      harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
      for (const [first, second] of [
        [0, 1],
        [1, 2],
        [0, 2],
        [0, 1],
      ]) {
        const models = [TEST_MODELS[first!]!.id, TEST_MODELS[second!]!.id];
        const created = await harness.client.request('POST', '/api/v1/duels', { prompt: 'Bonjour', mode: 'custom', models, locale: 'fr' });
        await harness.client.stream(created.json.id);
        const duel = (await harness.arena.store.duels.findById(created.json.id))!;
        const winnerSide = duel.modelA === models[0] ? 'a' : 'b';
        expect(
          (await harness.client.request('POST', `/api/v1/duels/${created.json.id}/reactions`, { side: winnerSide, turn: 1, value: 'like' }))
            .status,
        ).toBe(200);
      }
      harness.arena.leaderboardRefresh.trigger();
      await harness.arena.leaderboardRefresh.idle();
      const body = (await harness.client.request('GET', '/api/v1/leaderboard')).json as LeaderboardBody;
      expect(body.n_votes).toBe(4);
      expect(body.models.find((row) => row.model === TEST_MODELS[0].id)).toMatchObject({ wins: 3, losses: 0 });
    } finally {
      await harness.close();
    }
  });
});

describe.each(DIALECTS)('views from post-processing: detected language and topics ($name)', (dialect) => {
  it('ranks per language of the prompts (not the locale) and per topic category once they have enough votes', async () => {
    const harness = await startTestArena(dialect, {
      catalogue: catalogueWithAnnotator,
      environment: {
        AGORA_ANNOTATION_MODEL: ANNOTATOR.id,
        // The test picks its pairs (custom mode) and ranks them on the main board, which by default leaves them to their own view.
        AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1',
        AGORA_POSTPROCESS_EVERY_S: '0.1',
        AGORA_INTEGRITY_MIN_VOTE_S: '0',
        AGORA_LEADERBOARD_MIN_VOTES: '3',
        AGORA_LEADERBOARD_MIN_INTERVAL_S: '0',
      },
    });
    try {
      harness.fake.defaultBehaviour = {
        tokensPerSecond: 0,
        text: 'Voici une réponse courte et claire, en français, avec deux phrases. Elle explique le sujet demandé.',
      };
      harness.fake.behave(ANNOTATOR.upstream, { tokensPerSecond: 0, text: annotatorAnswer });
      const ids: string[] = [];
      for (const [first, second] of [
        [0, 1],
        [1, 2],
        [0, 2],
        [0, 1],
      ]) {
        const models = [TEST_MODELS[first!]!.id, TEST_MODELS[second!]!.id];
        // An English interface, French prompts about a science topic.
        const created = await harness.client.request('POST', '/api/v1/duels', {
          prompt: 'Peux-tu m’expliquer la photosynthèse et le rôle de la chlorophylle ?',
          mode: 'custom',
          models,
          locale: 'en',
        });
        await harness.client.stream(created.json.id);
        const duel = (await harness.arena.store.duels.findById(created.json.id))!;
        expect(
          (await harness.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: duel.modelA === models[0] ? 'a' : 'b' }))
            .status,
        ).toBe(200);
        ids.push(created.json.id as string);
      }
      const science = 'Natural Science & Formal Science & Technology';
      const body = await until(
        async () =>
          (await harness.client.request('GET', `/api/v1/leaderboard?category=${encodeURIComponent(science)}`)).json as LeaderboardBody,
        (found) => found.n_votes === 4,
      );
      expect(body.view.category).toBe(science);
      expect(body.models[0]!.model).toBe(TEST_MODELS[0].id);
      expect(body.available.categories).toEqual([{ value: science, n_votes: 4 }]);
      expect(body.available.languages).toEqual([{ value: 'fr', n_votes: 4 }]);
      expect(((await harness.client.request('GET', '/api/v1/leaderboard?language=fr')).json as LeaderboardBody).n_votes).toBe(4);
      expect(((await harness.client.request('GET', '/api/v1/leaderboard?language=en')).json as LeaderboardBody).n_votes).toBe(0);
    } finally {
      await harness.close();
    }
  });
});
