import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS } from './test-db';
import { type TestArena, startTestArena } from './test-arena';

describe.each(DIALECTS)('votes on duels whose turn ended here ($name)', (dialect) => {
  let harness: TestArena | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  /** A duel streamed to its end, and a count of the reads of vote contexts from the store. */
  async function finishedDuel(arena: TestArena, turns = 1): Promise<{ id: string; storeReads: () => number }> {
    const { client } = arena;
    const created = await client.request('POST', '/api/v1/duels', {
      prompt: 'Bonjour',
      mode: 'custom',
      models: ['zephyrine-405b', 'kestrix-8b'],
    });
    await client.stream(created.json.id);
    for (let turn = 2; turn <= turns; turn += 1) {
      await client.request('POST', `/api/v1/duels/${created.json.id}/messages`, { prompt: `encore ${turn}` });
      await client.stream(created.json.id);
    }
    const duels = arena.arena.store.duels;
    const read = duels.findVoteContext.bind(duels);
    let reads = 0;
    duels.findVoteContext = (duelId) => {
      reads += 1;
      return read(duelId);
    };
    return { id: created.json.id, storeReads: () => reads };
  }

  it('reveals from what the turns left in memory, exactly as from the store', async () => {
    harness = await startTestArena(dialect);
    const { id, storeReads } = await finishedDuel(harness, 2);
    const vote = await harness.client.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'a', tags: { a: ['useful'] } });
    expect(vote.status).toBe(200);
    expect(storeReads()).toBe(0);
    // The transcript builds its reveal from the store.
    const transcript = await harness.client.request('GET', `/api/v1/duels/${id}`);
    expect(vote.json.reveal).toEqual(transcript.json.reveal);
    expect(vote.json.reveal.a.output_tokens).toBeGreaterThan(0);
    const second = await harness.client.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'b' });
    expect(second).toMatchObject({ status: 409, json: { error: { code: 'already_voted' } } });
  });

  it('leaves the store the last word: a vote or a follow-up through another instance makes the vote here fail', async () => {
    harness = await startTestArena(dialect);
    const { store } = harness.arena;
    const votedElsewhere = await finishedDuel(harness);
    const duel = (await store.duels.findById(votedElsewhere.id))!;
    const at = new Date().toISOString();
    const elsewhere = {
      duelId: duel.id,
      choice: 'b',
      modelA: duel.modelA,
      modelB: duel.modelB,
      tagsA: [],
      tagsB: [],
      commentA: null,
      commentB: null,
      identityLeak: false,
      mode: duel.mode,
      locale: null,
      createdAt: at,
    };
    expect(await store.transaction((repositories) => repositories.duels.closeWithVote(elsewhere))).toBe(true);
    const vote = await harness.client.request('POST', `/api/v1/duels/${duel.id}/vote`, { choice: 'a' });
    expect(vote).toMatchObject({ status: 409, json: { error: { code: 'already_voted' } } });
    expect((await store.feedback.findVote(duel.id))!.choice).toBe('b');

    const followedElsewhere = await finishedDuel(harness);
    expect(
      await store.duels.startFollowUpTurn(followedElsewhere.id, {
        turn: 2,
        prompt: 'ailleurs',
        status: 'streaming',
        errorCode: null,
        startedAt: at,
        endedAt: null,
      }),
    ).toBe(true);
    const refused = await harness.client.request('POST', `/api/v1/duels/${followedElsewhere.id}/vote`, { choice: 'a' });
    expect(refused).toMatchObject({ status: 409, json: { error: { code: 'turn_in_progress' } } });
    expect(await store.feedback.findVote(followedElsewhere.id)).toBeUndefined();
  });
});
