import { type HeadToHead, type LeaderboardBody, type ModelProfile, headToHeadSchema, modelProfileSchema } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from './test-db';
import { ModelProfileService } from '../src/services/model-profile.service';
import { type TestArena, TEST_MODELS, startTestArena, until } from './test-arena';

const [A, B, C] = [TEST_MODELS[0].id, TEST_MODELS[1].id, TEST_MODELS[2].id];

describe.each(DIALECTS)('model profiles and head-to-head ($name)', (dialect) => {
  let harness: TestArena;
  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      environment: {
        AGORA_POSTPROCESS: '0',
        // The test picks its pairs (custom mode); by default these leave the main board, so it counts them there.
        AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1',
        AGORA_INTEGRITY_MIN_VOTE_S: '0',
        AGORA_LEADERBOARD_EVERY_VOTES: '1',
        AGORA_LEADERBOARD_EVERY_S: '1',
        AGORA_LEADERBOARD_MIN_VOTES: '3',
        AGORA_LEADERBOARD_MIN_INTERVAL_S: '0.1',
      },
    });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
  });
  afterAll(() => harness.close());

  /** One duel between `first` and `second`; `outcome` from first's side; tags by model. */
  async function play(
    first: string,
    second: string,
    outcome: 'first' | 'second' | 'tie' | 'both_bad',
    locale: string,
    tags: Record<string, string[]> = {},
    reaction?: { model: string; value: 'like' | 'dislike'; tags: string[] },
  ): Promise<string> {
    const { client } = harness;
    const created = await client.request('POST', '/api/v1/duels', { prompt: 'Bonjour', mode: 'custom', models: [first, second], locale });
    await client.stream(created.json.id);
    const duel = (await harness.arena.store.duels.findById(created.json.id))!;
    const firstSide = duel.modelA === first ? 'a' : 'b';
    if (reaction) {
      const side = duel.modelA === reaction.model ? 'a' : 'b';
      const body = { side, turn: 1, value: reaction.value, tags: reaction.tags };
      expect((await client.request('POST', `/api/v1/duels/${created.json.id}/reactions`, body)).status).toBe(200);
    }
    const choice = outcome === 'first' ? firstSide : outcome === 'second' ? (firstSide === 'a' ? 'b' : 'a') : outcome;
    const vote = await client.request('POST', `/api/v1/duels/${created.json.id}/vote`, {
      choice,
      tags: { a: tags[duel.modelA] ?? [], b: tags[duel.modelB] ?? [] },
    });
    expect(vote.status).toBe(200);
    return created.json.id as string;
  }

  it('counts each pair, tag and language as a hand count of the votes does, and predicts from the ratings', async () => {
    await play(A, B, 'first', 'fr', { [A]: ['useful', 'complete'], [B]: ['incorrect'] });
    await play(A, B, 'first', 'fr', { [A]: ['useful'] });
    await play(A, B, 'tie', 'en');
    await play(A, B, 'both_bad', 'fr', { [A]: ['superficial'] });
    await play(B, C, 'first', 'en');
    // A reaction to A's answer in the duel it lost.
    await play(A, C, 'second', 'fr', {}, { model: A, value: 'dislike', tags: ['incorrect'] });
    // A vote whose model named itself is left out of the board, and so of the records.
    harness.fake.behave(TEST_MODELS[0].upstream, { text: `Je suis ${TEST_MODELS[0].name}.` });
    await play(A, B, 'second', 'fr', { [A]: ['incorrect'] });
    harness.fake.behave(TEST_MODELS[0].upstream, { tokensPerSecond: 0 });
    await harness.arena.leaderboardRefresh.idle();
    harness.arena.leaderboardRefresh.trigger();
    await harness.arena.leaderboardRefresh.idle();
    const board = await until(
      async () => (await harness.client.request('GET', '/api/v1/leaderboard')).json as LeaderboardBody,
      (body) => body.n_votes === 6,
    );

    const response = await harness.client.request('GET', `/api/v1/models/${A}/profile`);
    expect(response.status).toBe(200);
    const profile = response.json as ModelProfile;
    // The answer is what the contract says, field for field (no stray field: a strict parse of each row).
    expect(modelProfileSchema.parse(profile)).toEqual(profile);
    const rating = (model: string) => board.models.find((row) => row.model === model)!.rating;
    const predicted = (model: string, opponent: string) => 1 / (1 + 10 ** (-(rating(model) - rating(opponent)) / 400));
    const vsB = profile.matrix.find((row) => row.opponent === B)!;
    expect(vsB).toMatchObject({ wins: 2, ties: 1, both_bad: 1, losses: 0, n: 4, observed: 0.75 });
    expect(vsB.predicted).toBeCloseTo(predicted(A, B), 12);
    expect(profile.matrix.find((row) => row.opponent === C)).toMatchObject({ wins: 0, ties: 0, both_bad: 0, losses: 1, n: 1, observed: 0 });
    expect(profile.languages).toEqual([
      { language: 'fr', votes: 4 },
      { language: 'en', votes: 1 },
    ]);
    // Three tagged answers of A counted (the leaked vote's tag is not): useful 2, complete 1, superficial 1.
    expect(profile.vote_tags.answers).toBe(3);
    expect(profile.vote_tags.tags).toEqual([
      { tag: 'useful', count: 2, share: 2 / 3 },
      { tag: 'complete', count: 1, share: 1 / 3 },
      { tag: 'superficial', count: 1, share: 1 / 3 },
    ]);
    expect(profile.reactions).toEqual({ total: 1, likes: 0, dislikes: 1, tags: [{ tag: 'incorrect', count: 1, share: 1 }] });
    const overall = profile.ratings.find(
      (entry) => entry.view.language === null && entry.view.mode === null && entry.view.style === 'plain',
    );
    expect(overall).toMatchObject({ rating: rating(A), n_battles: 5 });
    expect(profile.ratings.some((entry) => entry.view.style === 'controlled')).toBe(true);

    // Another instance only reads the snapshots: its sheets read the stored tallies, and say the same.
    const { catalogue, leaderboards } = harness.arena;
    const reader = new ModelProfileService({
      store: harness.arena.store,
      catalogue,
      board: { latestViews: () => leaderboards.latestViews(), latestTallies: () => undefined, ownViewModes: () => [] },
    });
    const read = await reader.profile(A);
    expect(read.matrix).toEqual(profile.matrix);
    expect(read.languages).toEqual(profile.languages);

    const versus = await harness.client.request('GET', `/api/v1/models/${B}/vs/${A}`);
    expect(versus.status).toBe(200);
    const body = versus.json as HeadToHead;
    expect(headToHeadSchema.parse(body)).toEqual(body);
    expect(body.record).toMatchObject({ opponent: A, wins: 0, ties: 1, both_bad: 1, losses: 2, n: 4, observed: 0.25 });
    expect(body.record.predicted).toBeCloseTo(predicted(B, A), 12);
    expect(body.views[0]).toMatchObject({ a: { rating: rating(B) }, b: { rating: rating(A) } });
  });

  it('documents both routes in the OpenAPI document', async () => {
    const { json } = await harness.client.request('GET', '/api/v1/openapi.json');
    expect(json.paths['/api/v1/models/{id}/profile'].get.responses['200']).toBeDefined();
    expect(json.paths['/api/v1/models/{a}/vs/{b}'].get.responses['404']).toBeDefined();
  });

  it('answers 404 with the error body for an unknown model, 400 for a model against itself', async () => {
    const unknown = await harness.client.request('GET', '/api/v1/models/no-such-model/profile');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('not_found');
    const versus = await harness.client.request('GET', `/api/v1/models/${A}/vs/no-such-model`);
    expect(versus.status).toBe(404);
    const self = await harness.client.request('GET', `/api/v1/models/${A}/vs/${A}`);
    expect(self.status).toBe(400);
  });
});

describe.each(DIALECTS)('model sheet tags and the integrity rules ($name)', (dialect) => {
  it('counts no tag of a vote the rules flag, as the board counts no such vote', async () => {
    const harness = await startTestArena(dialect, {
      environment: {
        AGORA_POSTPROCESS: '0',
        AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1',
        // too_fast alone: a vote within 1.5 s of the answers is flagged, the reading rule is off.
        AGORA_INTEGRITY_MIN_VOTE_S: '1.5',
        AGORA_INTEGRITY_READING_CHARS_PER_S: '0',
        AGORA_LEADERBOARD_MIN_VOTES: '1',
      },
    });
    try {
      harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
      const duel = async () => {
        const created = await harness.client.request('POST', '/api/v1/duels', { prompt: 'Bonjour', mode: 'custom', models: [A, B] });
        await harness.client.stream(created.json.id);
        return (await harness.arena.store.duels.findById(created.json.id as string))!;
      };
      const vote = async (id: string, tagsOfA: string[], modelA: string) => {
        const tags = modelA === A ? { a: tagsOfA, b: [] } : { a: [], b: tagsOfA };
        expect((await harness.client.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'tie', tags })).status).toBe(200);
      };
      const read = await duel();
      // Read: voted well after the answers. Hasty: at once, flagged too_fast.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await vote(read.id, ['useful'], read.modelA);
      const hasty = await duel();
      await vote(hasty.id, ['creative', 'complete'], hasty.modelA);
      await harness.arena.leaderboards.refresh();
      expect(((await harness.client.request('GET', '/api/v1/leaderboard')).json as LeaderboardBody).n_votes).toBe(1);
      // The refresh judged every vote already: the sheet reads no vote again (13 s of CPU at 250,000 votes).
      const everyVote = vi.spyOn(harness.arena.store.feedback, 'listRankingVotes');
      const profile = (await harness.client.request('GET', `/api/v1/models/${A}/profile`)).json as ModelProfile;
      expect(profile.vote_tags).toEqual({ answers: 1, tags: [{ tag: 'useful', count: 1, share: 1 }] });
      expect(everyVote).not.toHaveBeenCalled();
      everyVote.mockRestore();
    } finally {
      await harness.close();
    }
  });
});
