import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { conversationImpact } from '../src/domain/impact';
import { DIALECTS } from './test-db';
import { ArenaClient, type TestArena, TEST_MODELS, startTestArena, streamedText } from './test-arena';

describe.each(DIALECTS)('a whole duel over HTTP and SSE ($name)', (dialect) => {
  let harness: TestArena;
  beforeAll(async () => {
    harness = await startTestArena(dialect);
    harness.fake.defaultBehaviour = { tokensPerSecond: 400 };
  });
  afterAll(() => harness.close());
  // Each test scripts the models it needs; none inherits another's (tests run in any order).
  beforeEach(() => harness.fake.reset());

  it('goes create → stream → follow-up → stream → reactions → vote → reveal, and stores what was streamed', async () => {
    const { client } = harness;
    const created = await client.request('POST', '/api/v1/duels', { prompt: 'Explique la photosynthèse en deux phrases.', locale: 'fr' });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ id: expect.any(String), turn: 1 });
    const id = created.json.id as string;

    const first = await client.stream(id);
    expect(first[0]!.event).toEqual({ type: 'turn-start', turn: 1 });
    expect(first.at(-1)!.event).toEqual({ type: 'turn-end', turn: 1, status: 'complete' });
    expect(first.map((frame) => Number(frame.id))).toEqual(first.map((_, index) => index + 1));
    const sideEnds = first.filter((frame) => frame.event.type === 'side-end').map((frame) => frame.event);
    expect(sideEnds).toHaveLength(2);
    const firstText = streamedText(first);
    expect(firstText.a).toContain('photosynthèse');
    expect(firstText.b).toContain('photosynthèse');
    // Small deltas: no frame ever carries a whole message again.
    const deltas = first.filter((frame) => frame.event.type === 'text-delta');
    expect(deltas.length).toBeGreaterThan(20);
    expect(Math.max(...deltas.map((frame) => (frame.event as { text: string }).text.length))).toBeLessThan(30);

    const followUp = await client.request('POST', `/api/v1/duels/${id}/messages`, { prompt: 'Et en une phrase ?' });
    expect(followUp).toMatchObject({ status: 201, json: { turn: 2 } });
    const second = await client.stream(id, { turn: 2 });
    expect(second.at(-1)!.event).toEqual({ type: 'turn-end', turn: 2, status: 'complete' });
    const secondText = streamedText(second);

    // Each side kept its own history: the follow-up request carried that side's first answer.
    const followUpRequests = harness.fake.requests.filter((request) => JSON.stringify(request.body).includes('Et en une phrase'));
    expect(followUpRequests).toHaveLength(2);
    for (const request of followUpRequests) {
      const messages = request.body.messages as { role: string; content: unknown }[];
      expect(messages.map((message) => message.role).filter((role) => role !== 'system')).toEqual(['user', 'assistant', 'user']);
    }

    const like = await client.request('POST', `/api/v1/duels/${id}/reactions`, {
      side: 'a',
      turn: 1,
      value: 'like',
      tags: ['useful', 'clear_formatting'],
      comment: 'nette',
    });
    expect(like).toMatchObject({
      status: 200,
      json: { reaction: { side: 'a', turn: 1, value: 'like', tags: ['useful', 'clear_formatting'], comment: 'nette' } },
    });
    const changed = await client.request('POST', `/api/v1/duels/${id}/reactions`, {
      side: 'a',
      turn: 1,
      value: 'dislike',
      tags: ['superficial'],
    });
    expect(changed.json.reaction.value).toBe('dislike');
    await client.request('POST', `/api/v1/duels/${id}/reactions`, { side: 'b', turn: 2, value: 'like' });
    const removed = await client.request('POST', `/api/v1/duels/${id}/reactions`, { side: 'b', turn: 2, value: null });
    expect(removed.json.reaction.value).toBeNull();

    const before = await client.request('GET', `/api/v1/duels/${id}`);
    expect(before.json.status).toBe('ready');
    expect(before.json.reveal).toBeUndefined();
    expect(before.json.reactions).toEqual([{ side: 'a', turn: 1, value: 'dislike', tags: ['superficial'], comment: null }]);

    const vote = await client.request('POST', `/api/v1/duels/${id}/vote`, {
      choice: 'b',
      tags: { b: ['complete'] },
      comments: { a: 'trop court' },
    });
    expect(vote.status).toBe(200);
    const revealed = [vote.json.reveal.a.model.id, vote.json.reveal.b.model.id];
    expect(new Set(revealed).size).toBe(2);
    for (const id of revealed) expect(TEST_MODELS.map((model) => model.id)).toContain(id);
    expect(vote.json.reveal.a.output_tokens).toBeGreaterThan(0);

    // The reveal carries each side's energy and carbon, consistent with the impact module for the stored answers.
    const storedSides = await harness.arena.store.duels.listSides(id);
    for (const side of ['a', 'b'] as const) {
      const reveal = vote.json.reveal[side];
      const answers = storedSides.filter((record) => record.side === side);
      expect(reveal.output_tokens).toBe(answers.reduce((sum, record) => sum + record.outputTokens!, 0));
      const expected = conversationImpact({
        model: { params_b: reveal.model.params_b, active_params_b: reveal.model.active_params_b, arch: reveal.model.arch },
        outputTokensPerMessage: answers.map((record) => record.outputTokens!),
        latencySecondsPerMessage: answers.map((record) => record.durationMs! / 1000),
        locale: 'fr',
      });
      expect(reveal.impact.energy_wh).toEqual(expected.energy_wh);
      expect(reveal.impact.gwp_g).toEqual(expected.gwp_g);
      expect(reveal.impact.energy_wh.min).toBeGreaterThan(0);
      expect(reveal.impact.method).toBe('ecologits-0.9.1');
      expect(reveal.impact.equivalents.length).toBeGreaterThanOrEqual(2);
    }

    const transcript = await client.request('GET', `/api/v1/duels/${id}`);
    expect(transcript.json.status).toBe('voted');
    expect(transcript.json.turns.map((turn: { a: { text: string } }) => turn.a.text)).toEqual([firstText.a, secondText.a]);
    expect(transcript.json.turns.map((turn: { b: { text: string } }) => turn.b.text)).toEqual([firstText.b, secondText.b]);
    expect(transcript.json.vote).toEqual({ choice: 'b', tags: { a: [], b: ['complete'] } });
    expect(transcript.json.reveal).toEqual(vote.json.reveal);

    const stored = await harness.arena.store.feedback.findVote(id);
    expect(stored).toMatchObject({ choice: 'b', commentA: 'trop court', identityLeak: false, locale: 'fr', mode: 'random' });
    expect([stored!.modelA, stored!.modelB]).toEqual(revealed);

    const again = await client.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'a' });
    expect(again).toMatchObject({ status: 409, json: { error: { code: 'already_voted' } } });
    const lateReaction = await client.request('POST', `/api/v1/duels/${id}/reactions`, { side: 'a', turn: 1, value: 'like' });
    expect(lateReaction).toMatchObject({ status: 409, json: { error: { code: 'already_voted' } } });
    const lateFollowUp = await client.request('POST', `/api/v1/duels/${id}/messages`, { prompt: 'encore' });
    expect(lateFollowUp).toMatchObject({ status: 409, json: { error: { code: 'already_voted' } } });
  });

  it('gives a new visitor one cookie, and keeps one visitor across their duels', async () => {
    const visitor = new ArenaClient(harness.baseUrl);
    const first = await visitor.request('POST', '/api/v1/duels', { prompt: 'Premier duel', mode: 'random' });
    // Both middleware mounts match the bare path: the response must still set exactly one cookie.
    expect(first.headers.getSetCookie()).toHaveLength(1);
    const second = await visitor.request('POST', '/api/v1/duels', { prompt: 'Deuxième duel', mode: 'random' });
    expect(second.headers.getSetCookie()).toHaveLength(0);
    await Promise.all([visitor.stream(first.json.id), visitor.stream(second.json.id)]);
    const [a, b] = await Promise.all([
      harness.arena.store.duels.findById(first.json.id),
      harness.arena.store.duels.findById(second.json.id),
    ]);
    expect(a!.visitorHash).toBe(b!.visitorHash);
  });

  it('counts output tokens locally when the provider sends no usage', async () => {
    const chosen = [TEST_MODELS[2], TEST_MODELS[3]];
    for (const model of chosen) harness.fake.behave(model.upstream, { noUsage: true, text: 'un deux trois quatre cinq six' });
    const created = await harness.client.request('POST', '/api/v1/duels', {
      prompt: 'compte',
      mode: 'custom',
      models: chosen.map((model) => model.id),
    });
    await harness.client.stream(created.json.id);
    const sides = await harness.arena.store.duels.listSides(created.json.id);
    for (const side of sides) {
      expect(side.outputTokensSource).toBe('local');
      expect(side.outputTokens).toBeGreaterThanOrEqual(6);
    }
    const sideEnds = (await harness.client.stream(created.json.id)).filter((frame) => frame.event.type === 'side-end');
    expect(sideEnds.map((frame) => (frame.event as { output_tokens: number }).output_tokens)).toEqual([
      expect.any(Number),
      expect.any(Number),
    ]);
  });

  it('streams reasoning separately and flags a reply that names its own model', async () => {
    const [thinker, other] = [TEST_MODELS[4], TEST_MODELS[5]];
    harness.fake.behave(thinker.upstream, { reasoning: 'Je réfléchis.', text: 'Je suis Sollary Think, ravi de vous aider.' });
    harness.fake.behave(other.upstream, { text: 'Bonjour, voici une réponse neutre.' });
    const created = await harness.client.request('POST', '/api/v1/duels', {
      prompt: 'Qui es-tu ?',
      mode: 'custom',
      models: [thinker.id, other.id],
    });
    const frames = await harness.client.stream(created.json.id);
    expect(frames.some((frame) => frame.event.type === 'reasoning-delta')).toBe(true);
    const vote = await harness.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'tie' });
    expect(vote.status).toBe(200);
    expect((await harness.arena.store.feedback.findVote(created.json.id))!.identityLeak).toBe(true);
    const transcript = await harness.client.request('GET', `/api/v1/duels/${created.json.id}`);
    const thinkerSide = vote.json.reveal.a.model.id === thinker.id ? 'a' : 'b';
    expect(transcript.json.turns[0][thinkerSide].reasoning).toBe('Je réfléchis.');
  });

  it('speaks the Anthropic protocol through the same adapter', async () => {
    const anthropic = TEST_MODELS[1];
    const created = await harness.client.request('POST', '/api/v1/duels', {
      prompt: 'Salut',
      mode: 'custom',
      models: [anthropic.id, TEST_MODELS[2].id],
    });
    const frames = await harness.client.stream(created.json.id);
    expect(frames.at(-1)!.event).toMatchObject({ type: 'turn-end', status: 'complete' });
    const request = harness.fake.requestsFor(anthropic.upstream).at(-1)!;
    expect(request.protocol).toBe('anthropic');
    const sides = await harness.arena.store.duels.listSides(created.json.id);
    expect(sides.find((side) => side.modelId === anthropic.id)).toMatchObject({ status: 'complete', outputTokensSource: 'provider' });
  });
});
