import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_MODELS } from '../test-arena';
import { type InProcessArena, startInProcessArena } from './harness';

/**
 * The duel API's rules and error paths, in process: every request goes through the real routes,
 * validation, services and repositories, on an in-memory store with scripted models.
 */

const [first, second, third] = TEST_MODELS.map((model) => model.id) as [string, string, string];

let harness: InProcessArena;
beforeEach(async () => {
  harness = await startInProcessArena({ AGORA_MAX_TURNS: '2', AGORA_MAX_PROMPT_CHARS: '200' });
});
afterEach(() => harness.close());

describe('a duel, in process', () => {
  it('streams both answers, stays blind until the vote, then reveals both models', async () => {
    const visitor = harness.visitor();
    harness.models.script(first, { answer: 'Je vais bien, merci.' });
    harness.models.script(second, { answer: 'Très bien, et vous ?' });
    const { id, frames } = await visitor.playedDuel([first, second]);
    const types = frames.map((frame) => frame.event.type);
    expect(types[0]).toBe('turn-start');
    expect(types.at(-1)).toBe('turn-end');
    const before = await visitor.request('GET', `/api/v1/duels/${id}`);
    expect(before.json.status).toBe('ready');
    expect(before.json.reveal).toBeUndefined();
    const texts = [before.json.turns[0].a.text, before.json.turns[0].b.text].sort();
    expect(texts).toEqual(['Je vais bien, merci.', 'Très bien, et vous ?'].sort());
    // Nothing before the vote names a model: not the frames, not the transcript.
    const seen = JSON.stringify(frames) + JSON.stringify(before.json);
    for (const model of TEST_MODELS) {
      expect(seen).not.toContain(model.id);
      expect(seen).not.toContain(model.name);
    }
    const vote = await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'a', tags: { a: ['useful'] } });
    expect(vote.status).toBe(200);
    expect([vote.json.reveal.a.model.id, vote.json.reveal.b.model.id].sort()).toEqual([first, second].sort());
    const after = await visitor.request('GET', `/api/v1/duels/${id}`);
    expect(after.json).toMatchObject({ status: 'voted', vote: { choice: 'a', tags: { a: ['useful'], b: [] } } });
  });

  it('sends the conversation so far with a follow-up, each side its own history', async () => {
    const visitor = harness.visitor();
    harness.models.script(first, { answer: 'one-a' }, { answer: 'two-a' });
    harness.models.script(second, { answer: 'one-b' }, { answer: 'two-b' });
    const { id } = await visitor.playedDuel([first, second], 'first question');
    const followUp = await visitor.request('POST', `/api/v1/duels/${id}/messages`, { prompt: 'second question' });
    expect(followUp).toMatchObject({ status: 201, json: { turn: 2 } });
    await visitor.stream(id, 2);
    const histories = harness.models.calls.slice(2).map(({ modelId, options }) => ({ modelId, messages: options.messages }));
    const own = (modelId: string) => (modelId === first ? 'one-a' : 'one-b');
    for (const { modelId, messages } of histories) {
      expect(messages).toEqual([
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: own(modelId) },
        { role: 'user', content: 'second question' },
      ]);
    }
  });

  it('refuses a turn past the limit, and the duel stays votable', async () => {
    const visitor = harness.visitor();
    const { id } = await visitor.playedDuel([first, second]);
    await visitor.request('POST', `/api/v1/duels/${id}/messages`, { prompt: 'again' });
    await visitor.stream(id, 2);
    const third_ = await visitor.request('POST', `/api/v1/duels/${id}/messages`, { prompt: 'once more' });
    expect(third_).toMatchObject({ status: 409, json: { error: { code: 'turn_limit_reached' } } });
    expect((await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'tie' })).status).toBe(200);
  });

  it('takes one vote per duel', async () => {
    const visitor = harness.visitor();
    const { id } = await visitor.playedDuel([first, second]);
    expect((await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'both_bad' })).status).toBe(200);
    const again = await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'a' });
    expect(again).toMatchObject({ status: 409, json: { error: { code: 'already_voted' } } });
    const follow = await visitor.request('POST', `/api/v1/duels/${id}/messages`, { prompt: 'after the vote' });
    expect(follow.status).toBe(409);
  });

  it('fails the whole turn when one model fails, without naming the side, and the duel cannot be voted on', async () => {
    const visitor = harness.visitor();
    harness.models.script(first, { breakAfter: 'half an ' });
    harness.models.script(second, { answer: 'a whole answer' });
    const { id, frames } = await visitor.playedDuel([first, second]);
    const error = frames.find((frame) => frame.event.type === 'turn-error');
    // The message names neither side nor model.
    expect(JSON.stringify(error)).not.toMatch(/"side"|side [ab]\b/i);
    for (const model of TEST_MODELS) expect(JSON.stringify(frames)).not.toContain(model.id);
    expect(frames.at(-1)?.event).toEqual({ type: 'turn-end', turn: 1, status: 'failed' });
    const transcript = await visitor.request('GET', `/api/v1/duels/${id}`);
    expect(transcript.json.status).toBe('failed');
    expect(transcript.json.turns[0].status).toBe('failed');
    const vote = await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'b' });
    expect(vote).toMatchObject({ status: 409, json: { error: { code: 'duel_failed' } } });
  });

  it('records a reaction on a finished turn and refuses one on a turn that does not exist', async () => {
    const visitor = harness.visitor();
    const { id } = await visitor.playedDuel([first, second]);
    const liked = await visitor.request('POST', `/api/v1/duels/${id}/reactions`, {
      side: 'a',
      turn: 1,
      value: 'like',
      tags: ['clear_formatting'],
    });
    expect(liked).toMatchObject({ status: 200, json: { reaction: { side: 'a', turn: 1, value: 'like', tags: ['clear_formatting'] } } });
    const missing = await visitor.request('POST', `/api/v1/duels/${id}/reactions`, { side: 'a', turn: 5, value: 'like' });
    expect(missing).toMatchObject({ status: 404, json: { error: { code: 'turn_not_found' } } });
  });

  it('dates the duel with the injected clock', async () => {
    const visitor = harness.visitor();
    const { id } = await visitor.playedDuel([first, third]);
    harness.runtime.advance(60_000);
    await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'b' });
    const duel = await harness.arena.store.duels.findById(id);
    expect(duel?.createdAt).toBe('2026-06-01T12:00:00.000Z');
  });
});

describe('bad requests, in process', () => {
  const cases: [string, string, string, unknown, number, string][] = [
    ['no prompt', 'POST', '/api/v1/duels', { mode: 'random' }, 400, 'invalid_request'],
    ['an unknown field', 'POST', '/api/v1/duels', { prompt: 'x', extra: 1 }, 400, 'invalid_request'],
    ['a prompt over the limit', 'POST', '/api/v1/duels', { prompt: 'x'.repeat(201) }, 400, 'invalid_request'],
    ['invalid JSON', 'POST', '/api/v1/duels', '{"prompt": ', 400, 'invalid_json'],
    ['an unknown model', 'POST', '/api/v1/duels', { prompt: 'x', mode: 'custom', models: ['nope-1b', first] }, 400, 'unknown_models'],
    ['a malformed duel id', 'GET', '/api/v1/duels/short', undefined, 400, 'invalid_request'],
    ['an unknown duel', 'GET', '/api/v1/duels/unknown-duel-id-000', undefined, 404, 'duel_not_found'],
    ['a vote on an unknown duel', 'POST', '/api/v1/duels/unknown-duel-id-000/vote', { choice: 'a' }, 404, 'duel_not_found'],
    ['an unknown choice', 'POST', '/api/v1/duels/unknown-duel-id-000/vote', { choice: 'c' }, 400, 'invalid_request'],
    ['the admin API without a session or token', 'GET', '/api/v1/admin/upstream-errors', undefined, 401, 'unauthorized'],
  ];
  it.each(cases)('answers %s with the JSON error shape', async (_name, method, path, body, status, code) => {
    const answer = await harness.visitor().request(method, path, body);
    expect(answer.status).toBe(status);
    expect(answer.json).toMatchObject({ error: { code, message: expect.any(String) } });
  });

  it('calls no model for a refused request', async () => {
    await harness.visitor().request('POST', '/api/v1/duels', { prompt: 'x', extra: true });
    expect(harness.models.calls).toHaveLength(0);
  });
});
