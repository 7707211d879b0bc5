import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TURN_LEASE_MS } from '../../src/services/duels/turn-lease';
import { TEST_MODELS } from '../test-arena';
import { type InProcessArena, startInProcessArena } from './harness';

/**
 * Requests that meet a turn whose lease lapsed at the same time: one of them ends the turn, and
 * every one answers as for a failed turn, never "in progress" from the duel it read before.
 */

const [first, second] = TEST_MODELS.map((model) => model.id) as [string, string];

let harness: InProcessArena;
beforeEach(async () => {
  harness = await startInProcessArena();
});
afterEach(() => harness.close());

/** Lets the running turn's models answer (each test does once its requests are answered; afterEach in any case). */
let release: () => void = () => undefined;
afterEach(() => release());

/** A duel whose first turn is still running (its models answer only once released) when its lease lapses on the test clock. */
async function lapsedDuel(): Promise<{ id: string; visitor: ReturnType<InProcessArena['visitor']> }> {
  const visitor = harness.visitor();
  const released = new Promise<void>((resolve) => (release = resolve));
  harness.models.script(first, { answer: 'un deux trois', startsAfter: released });
  harness.models.script(second, { answer: 'quatre cinq', startsAfter: released });
  const created = await visitor.request('POST', '/api/v1/duels', { prompt: 'Bonjour', mode: 'custom', models: [first, second] });
  harness.runtime.advance(TURN_LEASE_MS + 1000);
  return { id: created.json.id as string, visitor };
}

describe('a lapsed lease met by several requests at once', () => {
  it('two votes both answer duel_failed, and the turn ends as interrupted', async () => {
    const { id, visitor } = await lapsedDuel();
    const votes = await Promise.all(['a', 'b'].map((choice) => visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice })));
    expect(votes.map((vote) => [vote.status, vote.json.error.code])).toEqual([
      [409, 'duel_failed'],
      [409, 'duel_failed'],
    ]);
    release();
    const frames = await visitor.stream(id);
    expect(frames.at(-1)?.event).toEqual({ type: 'turn-end', turn: 1, status: 'failed' });
    expect((await visitor.request('GET', `/api/v1/duels/${id}`)).json.status).toBe('failed');
  });

  it('a vote and a follow-up both answer duel_failed', async () => {
    const { id, visitor } = await lapsedDuel();
    const answers = await Promise.all([
      visitor.request('POST', `/api/v1/duels/${id}/messages`, { prompt: 'encore' }),
      visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'a' }),
    ]);
    expect(answers.map((answer) => [answer.status, answer.json.error.code])).toEqual([
      [409, 'duel_failed'],
      [409, 'duel_failed'],
    ]);
    release();
    await visitor.stream(id);
  });
});
