import { type LeaderboardBody, voteResponseSchema } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_ADMIN_TOKEN, TestClock, flaggedVotes, playDuel } from './paced-campaign';
import { ClientAt, type TestArena, startTestArena } from './test-arena';
import { DIALECTS } from './test-db';

/*
 * The vote's answer says whether it counts in the ranking (issue 32: the reveal said "your vote
 * counts" of votes the rules had dropped), and never which rule left it out.
 */
describe.each(DIALECTS)('the vote answers whether it counts ($name)', (dialect) => {
  let harness: TestArena;
  const clock = new TestClock();

  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      runtime: clock.runtime,
      environment: { AGORA_ADMIN_TOKEN: CAMPAIGN_ADMIN_TOKEN, AGORA_TRUSTED_PROXIES: '127.0.0.1,::1' },
    });
  }, 60_000);
  afterAll(() => harness.close());

  /** Plays a duel as a visitor of its own address, waits `readMs` on the arena's clock, votes; the answer. */
  async function voteAfter(address: string, readMs: number): Promise<{ id: string; status: number; json: Record<string, unknown> }> {
    const visitor = new ClientAt(harness.baseUrl, address);
    const id = await playDuel(visitor, { mode: 'random' });
    clock.aheadMs += readMs;
    const answer = await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'tie' });
    return { id, status: answer.status, json: answer.json as Record<string, unknown> };
  }

  it('counts a vote cast after reading, and says a vote cast at once does not, without naming the rule', async () => {
    // The fake upstream's two answers hold about 250 characters: 4.2 s for a fast reader.
    const read = await voteAfter('198.51.100.7', 6_000);
    expect(read.status).toBe(200);
    expect(voteResponseSchema.parse(read.json).counted).toBe(true);

    const hasty = await voteAfter('198.51.101.7', 0);
    expect(hasty.status).toBe(200);
    const parsed = voteResponseSchema.parse(hasty.json);
    expect(parsed.counted).toBe(false);
    expect(parsed.reveal.a.model.id).toEqual(expect.any(String));
    // The answer holds the reveal and the verdict, nothing of the rules.
    expect(Object.keys(hasty.json).sort()).toEqual(['counted', 'reveal']);
    expect(JSON.stringify(hasty.json)).not.toMatch(/too_fast|flag/);

    // The admin API says which rule it was, and the refresh agrees with the verdicts.
    const flags = await flaggedVotes(harness);
    expect(flags.get(hasty.id)).toEqual(['too_fast']);
    expect(flags.has(read.id)).toBe(false);
  });

  it('says a visitor’s vote does not count once its votes trip a visitor rule (one side every time)', async () => {
    const visitor = new ClientAt(harness.baseUrl, '198.51.102.7');
    const verdicts: boolean[] = [];
    for (let index = 0; index < 10; index++) {
      const id = await playDuel(visitor, { mode: 'random' });
      clock.aheadMs += 10_000;
      const answer = await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'a' });
      verdicts.push(voteResponseSchema.parse(answer.json).counted);
    }
    // The tenth vote for side A makes the visitor one-sided (10 by default): it, and those before, stop counting.
    expect(verdicts).toEqual([...Array<boolean>(9).fill(true), false]);
  });

  it('gives, below the minimum for a board, the votes it counts so far rather than 0', async () => {
    // Twelve votes so far, one counted: the read one (the hasty one is too fast, the one-sided visitor's ten are all flagged).
    await harness.arena.leaderboards.refresh();
    const board = (await harness.client.request('GET', '/api/v1/leaderboard')).json as LeaderboardBody;
    expect(board).toMatchObject({ n_votes: 1, min_votes: 30, models: [] });
    expect(((await harness.client.request('GET', '/api/v1/stats')).json as { votes: number }).votes).toBeGreaterThanOrEqual(1);
  });
});
