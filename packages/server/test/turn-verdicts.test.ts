import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from './test-db';
import { ArenaClient, type TestArena, startTestArena } from './test-arena';
import { rankVoteTable, storeTurnVerdictTable } from '../src/services/rank-votes';

const verdictPath = (duelId: string, turn: number | string) => `/api/v1/duels/${duelId}/turns/${turn}/verdict`;

/** A duel played to the end of its first turn, by a fresh visitor. */
async function playedDuel(harness: TestArena, prompt: string): Promise<{ client: ArenaClient; id: string }> {
  const client = new ArenaClient(harness.baseUrl);
  const created = await client.request('POST', '/api/v1/duels', { prompt });
  expect(created.status).toBe(201);
  const id = created.json.id as string;
  await client.stream(id);
  return { client, id };
}

/**
 * Per-turn verdicts (issue 34, item 1) over real HTTP on both stores: a verdict per completed turn,
 * changeable until the vote, which stays required for the reveal; refused on another visitor's duel,
 * a turn still streaming or absent, after the vote and after erasure; bad bodies answered 400.
 */
describe.each(DIALECTS)('turn verdicts ($name)', (dialect) => {
  let harness: TestArena;
  beforeAll(async () => {
    harness = await startTestArena(dialect);
  });
  afterAll(() => harness.close());
  beforeEach(() => harness.fake.reset());

  it('takes a verdict on each completed turn, changes it, names no model, and leaves the vote to reveal', async () => {
    const { client, id } = await playedDuel(harness, 'Quelle est la capitale de la Lituanie ?');
    const first = await client.request('PUT', verdictPath(id, 1), { verdict: 'a_better' });
    expect(first).toMatchObject({ status: 200, json: { verdict: { turn: 1, verdict: 'a_better' } } });
    const duel = (await harness.arena.store.duels.findById(id))!;
    // The answer is the verdict alone: no model id, no reveal.
    expect(Object.keys(first.json)).toEqual(['verdict']);
    const raw = client.received.at(-1)!.body;
    expect(raw.includes(duel.modelA) || raw.includes(duel.modelB)).toBe(false);

    expect((await client.request('POST', `/api/v1/duels/${id}/messages`, { prompt: 'Et celle de la Suède ?' })).status).toBe(201);
    await client.stream(id, { turn: 2 });
    expect((await client.request('PUT', verdictPath(id, 2), { verdict: 'both_bad' })).status).toBe(200);
    // A change replaces the verdict; the first time it was given is kept.
    const storedBefore = await harness.arena.store.turnVerdicts.list(id);
    expect((await client.request('PUT', verdictPath(id, 1), { verdict: 'b_better' })).status).toBe(200);
    const stored = await harness.arena.store.turnVerdicts.list(id);
    expect(stored.map(({ turn, choice }) => [turn, choice])).toEqual([
      [1, 'b'],
      [2, 'both_bad'],
    ]);
    expect(stored[0]!.createdAt).toBe(storedBefore[0]!.createdAt);
    expect(stored[0]!.clientHash).toMatch(/\S/);

    const transcript = await client.request('GET', `/api/v1/duels/${id}`);
    expect(transcript.json.verdicts).toEqual([
      { turn: 1, verdict: 'b_better' },
      { turn: 2, verdict: 'both_bad' },
    ]);
    expect(transcript.json.reveal).toBeUndefined();

    const vote = await client.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'b' });
    expect(vote.status).toBe(200);
    expect(vote.json.reveal.a.model.id).toBe(duel.modelA);
    // The vote is the final word: no verdict changes after it.
    const late = await client.request('PUT', verdictPath(id, 1), { verdict: 'a_better' });
    expect(late).toMatchObject({ status: 409, json: { error: { code: 'already_voted' } } });
    expect((await harness.arena.store.turnVerdicts.list(id))[0]!.choice).toBe('b');
  });

  it('refuses another visitor’s duel, a turn absent or still streaming, and an erased duel', async () => {
    const { client, id } = await playedDuel(harness, 'Donne trois mots danois.');
    const stranger = new ArenaClient(harness.baseUrl);
    await stranger.request('GET', '/api/v1/leaderboard');
    const theirs = await stranger.request('PUT', verdictPath(id, 1), { verdict: 'a_better' });
    expect(theirs).toMatchObject({ status: 404, json: { error: { code: 'duel_not_found' } } });
    const absent = await client.request('PUT', verdictPath(id, 3), { verdict: 'a_better' });
    expect(absent).toMatchObject({ status: 404, json: { error: { code: 'turn_not_found' } } });

    harness.fake.defaultBehaviour = { tokensPerSecond: 20, text: Array.from({ length: 60 }, (_, index) => `mot${index}`).join(' ') };
    expect((await client.request('POST', `/api/v1/duels/${id}/messages`, { prompt: 'Encore trois.' })).status).toBe(201);
    const streaming = await client.request('PUT', verdictPath(id, 2), { verdict: 'both_good' });
    expect(streaming).toMatchObject({ status: 409, json: { error: { code: 'turn_in_progress' } } });
    await client.stream(id, { turn: 2 });
    harness.fake.defaultBehaviour = {};
    expect((await client.request('PUT', verdictPath(id, 2), { verdict: 'both_good' })).status).toBe(200);
    expect(await harness.arena.store.turnVerdicts.list(id)).toHaveLength(1);

    expect((await client.request('DELETE', `/api/v1/duels/${id}`)).status).toBe(200);
    expect(await harness.arena.store.turnVerdicts.list(id)).toEqual([]);
    const erased = await client.request('PUT', verdictPath(id, 1), { verdict: 'a_better' });
    expect(erased).toMatchObject({ status: 404, json: { error: { code: 'duel_not_found' } } });
  });

  it('ranks the stored verdicts with --unit turn: one vote per verdict, one cluster per duel', async () => {
    const played = await Promise.all([playedDuel(harness, 'Un premier duel à classer.'), playedDuel(harness, 'Un second duel à classer.')]);
    for (const { client, id } of played) {
      expect((await client.request('POST', `/api/v1/duels/${id}/messages`, { prompt: 'Et ensuite ?' })).status).toBe(201);
      await client.stream(id, { turn: 2 });
      for (const turn of [1, 2]) expect((await client.request('PUT', verdictPath(id, turn), { verdict: 'a_better' })).status).toBe(200);
    }
    const before = await storeTurnVerdictTable(harness.arena.store);
    const mine = played.map(({ id }) => id);
    const stored = (await harness.arena.store.turnVerdicts.listRankingVerdicts()).filter((verdict) => mine.includes(verdict.duelId));
    expect(stored.map(({ turn, choice }) => [turn, choice])).toEqual([
      [1, 'a'],
      [2, 'a'],
      [1, 'a'],
      [2, 'a'],
    ]);
    // Two verdicts per duel: as many clusters as duels, each verdict a row.
    expect(before.table.length).toBe(before.clusters.length);
    const board = rankVoteTable(before.table, { clusters: before.clusters });
    expect(board.weighting?.clusters).toBe(new Set(before.clusters).size);
  });

  it('answers bad input with the 400 error body, and stores nothing', async () => {
    const { client, id } = await playedDuel(harness, 'Écris un haïku.');
    const bad: [string, unknown][] = [
      [verdictPath(id, 1), { verdict: 'a' }],
      [verdictPath(id, 1), { verdict: 'a_better', extra: 1 }],
      [verdictPath(id, 1), {}],
      [verdictPath(id, 1), 'a_better\u0000'],
      [verdictPath(id, 1), { verdict: 'a_better\u0000' }],
      [verdictPath(id, 0), { verdict: 'a_better' }],
      [verdictPath(id, -1), { verdict: 'a_better' }],
      [verdictPath(id, '1.5'), { verdict: 'a_better' }],
      [verdictPath(id, '99999999999999999999'), { verdict: 'a_better' }],
      [verdictPath(id, 'un'), { verdict: 'a_better' }],
    ];
    for (const [path, body] of bad) {
      const answer = await client.request('PUT', path, body);
      expect([path, answer.status]).toEqual([path, 400]);
      expect(answer.json.error.code).toMatch(/^(invalid_request|invalid_json)$/);
    }
    // A body far past the JSON limit is refused before it is read.
    const huge = await client.request('PUT', verdictPath(id, 1), { verdict: 'a_better', padding: 'x'.repeat(2_000_000) });
    expect(huge.status).toBe(413);
    expect(await harness.arena.store.turnVerdicts.list(id)).toEqual([]);
  });
});
