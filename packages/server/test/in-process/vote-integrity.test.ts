import { type FlaggedVotes, flaggedVotesSchema } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessArena, type Visitor, startInProcessArena } from './harness';

/**
 * Vote integrity in process (services/vote-integrity.ts): the votes the rules flag, listed for
 * review through the admin API, and a reviewer's decision to count or exclude one. How long a
 * visitor took to vote is set with the test clock between the end of the answers and the vote.
 * One arena for the file (starting one is most of a test's time): each test reads only its own
 * duels' votes, so the tests pass in any order.
 */

const TOKEN = 'vote-integrity-admin-token';
const admin = { authorization: `Bearer ${TOKEN}` };

let harness: InProcessArena;
beforeAll(async () => {
  harness = await startInProcessArena({
    AGORA_ADMIN_TOKEN: TOKEN,
    AGORA_INTEGRITY_MIN_VOTE_S: '2',
    AGORA_INTEGRITY_ONE_SIDED_VOTES: '3',
    AGORA_LEADERBOARD_MIN_VOTES: '1',
  });
});
afterAll(() => harness.close());

/**
 * Plays a duel of two models the arena pairs (a random-mode vote, on the main board), waits `readMs`
 * on the test clock after the answers ended, then votes.
 */
async function voteAfter(readMs: number, choice: 'a' | 'b' | 'tie' = 'tie', visitor: Visitor = harness.visitor()): Promise<string> {
  const created = await visitor.request('POST', '/api/v1/duels', { prompt: 'Bonjour, une question ?', mode: 'random' });
  if (created.status !== 201) throw new Error(`duel not created: ${JSON.stringify(created.json)}`);
  const id = created.json.id as string;
  await visitor.stream(id);
  harness.runtime.advance(readMs);
  const vote = await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice });
  if (vote.status !== 200) throw new Error(`vote refused: ${JSON.stringify(vote.json)}`);
  return id;
}

/** The listed votes of these duels (other tests' votes are listed too), in the list's order. */
async function flagged(duelIds: readonly string[], query = ''): Promise<FlaggedVotes['votes']> {
  const answer = await harness.visitor().request('GET', `/api/v1/admin/votes/flagged${query}`, undefined, admin);
  expect(answer.status).toBe(200);
  return flaggedVotesSchema.parse(answer.json).votes.filter((vote) => duelIds.includes(vote.duel_id));
}

/** Votes on the live leaderboard's main board after a refresh. */
async function rankedVotes(): Promise<number> {
  await harness.arena.leaderboards.refresh();
  return harness.arena.leaderboards.latestOverall()?.n_votes ?? 0;
}

const review = (duelId: string, body: unknown, headers: Record<string, string> = admin) =>
  harness.visitor().request('PUT', `/api/v1/admin/votes/${duelId}`, body, headers);

describe('votes the integrity rules flag, in process', () => {
  it('lists a vote cast sooner than the minimum after the answers, and not one cast at the minimum', async () => {
    const hasty = await voteAfter(1_999, 'b');
    const votedAt = harness.runtime.now().toISOString();
    const atTheLimit = await voteAfter(2_000);
    const read = await voteAfter(30_000);
    const listed = await flagged([hasty, atTheLimit, read]);
    expect(listed).toEqual([
      {
        duel_id: hasty,
        created_at: votedAt,
        choice: 'b',
        model_a: expect.any(String),
        model_b: expect.any(String),
        flags: ['too_fast'],
        review: null,
        // The groups' keys: the first characters of the visitor's and the address's hashes.
        visitor: expect.stringMatching(/^[\w-]{12}$/),
        address: expect.stringMatching(/^[\w-]{12}$/),
      },
    ]);
    const duel = await harness.arena.store.duels.findById(hasty);
    expect(listed[0]).toMatchObject({ model_a: duel?.modelA, model_b: duel?.modelB });
  });

  it('lists flagged votes newest first, as many as asked', async () => {
    const older = await voteAfter(0);
    harness.runtime.advance(60_000);
    const newer = await voteAfter(500);
    expect((await flagged([older, newer])).map((vote) => vote.duel_id)).toEqual([newer, older]);
    expect((await flagged([older, newer], '?limit=1')).map((vote) => vote.duel_id)).toEqual([newer]);
  });

  it('flags every vote of a visitor who always picks the same side, once there are enough of them', async () => {
    const visitor = harness.visitor();
    const ids = [await voteAfter(5_000, 'a', visitor), await voteAfter(5_000, 'a', visitor)];
    expect(await flagged(ids)).toEqual([]);
    ids.push(await voteAfter(5_000, 'a', visitor));
    const listed = await flagged(ids);
    expect(listed.map((vote) => vote.duel_id).sort()).toEqual([...ids].sort());
    expect(listed.map((vote) => vote.flags)).toEqual([['one_sided'], ['one_sided'], ['one_sided']]);
    // Another visitor's vote for side A is theirs alone, not a fourth of the first one's.
    const other = await voteAfter(5_000, 'a');
    expect(await flagged([other])).toEqual([]);
  });
});

describe('a reviewer’s decision on a vote, in process', () => {
  it('counts a flagged vote back into the leaderboard, and the audit log says who and when', async () => {
    const before = await rankedVotes();
    const hasty = await voteAfter(100);
    expect(await rankedVotes()).toBe(before);

    harness.runtime.advance(3_600_000);
    const decidedAt = harness.runtime.now().toISOString();
    const decided = await review(hasty, { decision: 'count', reviewer: 'alice', reason: 'a slow reader after all' });
    expect(decided).toMatchObject({ status: 200, json: { duel_id: hasty, decision: 'count' } });
    // Still listed, with what the rules found and the reviewer's decision beside it.
    expect(await flagged([hasty])).toEqual([expect.objectContaining({ flags: ['too_fast'], review: 'count' })]);
    expect(await rankedVotes()).toBe(before + 1);

    const log = await harness.visitor().request('GET', `/api/v1/admin/review-log?duel_id=${hasty}`, undefined, admin);
    expect(log.json.entries).toEqual([
      expect.objectContaining({
        duel_id: hasty,
        decision: 'vote:count',
        previous_decision: null,
        reviewer: 'admin-token',
        reason: 'a slow reader after all',
        created_at: decidedAt,
      }),
    ]);
  });

  it('excludes a vote the rules did not flag, lists it, and keeps it out of the leaderboard; a later decision replaces it', async () => {
    const before = await rankedVotes();
    const honest = await voteAfter(10_000);
    expect(await rankedVotes()).toBe(before + 1);
    expect(await flagged([honest])).toEqual([]);

    expect((await review(honest, { decision: 'exclude', reviewer: 'bob' })).status).toBe(200);
    expect(await flagged([honest])).toEqual([expect.objectContaining({ flags: [], review: 'exclude' })]);
    expect(await rankedVotes()).toBe(before);

    expect((await review(honest, { decision: 'count', reviewer: 'carol' })).status).toBe(200);
    expect(await flagged([honest])).toEqual([expect.objectContaining({ review: 'count' })]);
    expect(await rankedVotes()).toBe(before + 1);
    const log = await harness.visitor().request('GET', `/api/v1/admin/review-log?duel_id=${honest}`, undefined, admin);
    expect(log.json.entries).toEqual([
      expect.objectContaining({ decision: 'vote:count', previous_decision: 'vote:exclude', reviewer: 'admin-token' }),
      expect.objectContaining({ decision: 'vote:exclude', previous_decision: null, reviewer: 'admin-token' }),
    ]);
  });

  it('refuses bad decisions with the JSON error shape and stores nothing', async () => {
    const hasty = await voteAfter(0);
    const unvoted = (await harness.visitor().request('POST', '/api/v1/duels', { prompt: 'Bonjour', mode: 'random' })).json.id as string;
    const flaggedVotes = () => harness.visitor().request('GET', '/api/v1/admin/votes/flagged?limit=0', undefined, admin);
    const cases: [string, () => ReturnType<typeof review>, number, string][] = [
      ['no token', () => review(hasty, { decision: 'count', reviewer: 'alice' }, {}), 401, 'unauthorized'],
      [
        'a wrong token',
        () => review(hasty, { decision: 'count', reviewer: 'alice' }, { authorization: 'Bearer nope' }),
        401,
        'unauthorized',
      ],
      ['a duel without a vote', () => review(unvoted, { decision: 'count', reviewer: 'alice' }), 404, 'not_found'],
      ['an unknown duel', () => review('unknown-duel-id-000', { decision: 'exclude', reviewer: 'alice' }), 404, 'not_found'],
      ['a malformed duel id', () => review('short', { decision: 'exclude', reviewer: 'alice' }), 400, 'invalid_request'],
      ['an unknown decision', () => review(hasty, { decision: 'include', reviewer: 'alice' }), 400, 'invalid_request'],
      ['an unknown field', () => review(hasty, { decision: 'count', reviewer: 'alice', votes: 3 }), 400, 'invalid_request'],
      ['invalid JSON', () => review(hasty, '{"decision":'), 400, 'invalid_json'],
      ['a limit of 0', flaggedVotes, 400, 'invalid_request'],
    ];
    for (const [name, send, status, code] of cases) {
      const answer = await send();
      expect({ name, status: answer.status, code: answer.json?.error?.code }).toEqual({ name, status, code });
      expect(typeof answer.json.error.message, name).toBe('string');
    }
    expect(await flagged([hasty, unvoted])).toEqual([expect.objectContaining({ duel_id: hasty, review: null })]);
    for (const duelId of [hasty, unvoted]) {
      const log = await harness.visitor().request('GET', `/api/v1/admin/review-log?duel_id=${duelId}`, undefined, admin);
      expect(log.json.entries).toEqual([]);
    }
  });
});
