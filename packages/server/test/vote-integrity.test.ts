import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankVoteTable, storeVoteTable } from '../src/services/rank-votes';
import { DIALECTS } from './test-db';
import { ClientAt, TEST_MODELS, type TestArena, startTestArena } from './test-arena';

const ADMIN = 'integrity-admin-token-0123';
const admin = { authorization: `Bearer ${ADMIN}` };
const TARGET = 'kestrix-8b';

const sizeOf = (id: string) => TEST_MODELS.find((model) => model.id === id)!.params;

describe.each(DIALECTS)('vote integrity: the stuffing attack ($name)', (dialect) => {
  let harness: TestArena;
  const rankOf = async () => {
    await harness.arena.leaderboards.refresh();
    const board = await harness.client.request('GET', '/api/v1/leaderboard');
    return (board.json.models as { model: string; rank: number | null }[]).find((row) => row.model === TARGET)?.rank;
  };

  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      environment: {
        AGORA_ADMIN_TOKEN: ADMIN,
        // The test picks its pairs (custom mode) and ranks them on the main board, which by default leaves them to their own view.
        AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1',
        AGORA_TRUSTED_PROXIES: '127.0.0.1,::1',
        AGORA_LEADERBOARD_MIN_VOTES: '1',
        // Wide apart: honest visitors vote 5 s after the answers, the script at once, which on a loaded
        // 2-core runner can still take a second or more (0.3 s flagged nothing once, under load).
        AGORA_INTEGRITY_MIN_VOTE_S: '2.5',
        AGORA_INTEGRITY_FAVOURITE_VOTES: '5',
        AGORA_INTEGRITY_BURST_PER_MINUTE: '20',
      },
    });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    // Honest visitors, one duel each from their own address, every pair twice: they read the answers,
    // then prefer the bigger model, or call it a tie. The target, the smallest, is last.
    const pairs = TEST_MODELS.flatMap((left, index) => TEST_MODELS.slice(index + 1).map((right) => [left.id, right.id] as const));
    const honest = await Promise.all(
      [...pairs, ...pairs].map(async ([a, b], index) => {
        // Each from its own /24: the rules count addresses by group (IPv4 /24).
        const visitor = new ClientAt(harness.baseUrl, `198.51.${index + 1}.7`);
        const created = await visitor.request('POST', '/api/v1/duels', { prompt: `Question ${index}`, mode: 'custom', models: [a, b] });
        await visitor.stream(created.json.id);
        return { visitor, id: created.json.id as string };
      }),
    );
    // Past what a fast reader takes over two of the fake upstream's answers (about 250 characters: 4.2 s at 60 a second).
    await new Promise((resolve) => setTimeout(resolve, 5000));
    for (const [index, { visitor, id }] of honest.entries()) {
      const duel = await harness.arena.store.duels.findById(id);
      // The second time round a pair, a tie: every model has some result against every other (none is provisional).
      const choice = index >= pairs.length ? 'tie' : sizeOf(duel!.modelA) > sizeOf(duel!.modelB) ? 'a' : 'b';
      expect((await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice })).status).toBe(200);
    }
  }, 60_000);
  afterAll(() => harness.close());

  it('no longer moves the target’s rank: a script voting for it at once from one address range, a new cookie each time, is flagged and left out', async () => {
    const before = await rankOf();
    expect(before).toBe(TEST_MODELS.length);
    const attack: string[] = [];
    for (let index = 0; index < 25; index++) {
      // The script walks its neighbouring addresses: one /24, one key for the rules.
      const script = new ClientAt(harness.baseUrl, `203.0.113.${index + 10}`);
      const other =
        TEST_MODELS[index % (TEST_MODELS.length - 1)]!.id === TARGET
          ? TEST_MODELS[0].id
          : TEST_MODELS[index % (TEST_MODELS.length - 1)]!.id;
      const created = await script.request('POST', '/api/v1/duels', { prompt: `Vote ${index}`, mode: 'custom', models: [TARGET, other] });
      await script.stream(created.json.id);
      const duel = await harness.arena.store.duels.findById(created.json.id);
      const choice = duel!.modelA === TARGET ? 'a' : 'b';
      expect((await script.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice })).status).toBe(200);
      attack.push(created.json.id as string);
    }
    // Counted as they are, these votes would make the target first.
    const open = rankVoteTable(
      await storeVoteTable(
        harness.arena.store,
        { minVoteMs: 0, oneSidedVotes: 1e6, burstVotesPerMinute: 1e6, favouriteVotes: 1e6 },
        { customModeOnMainBoard: true },
      ),
    );
    expect(open.rows.find((row) => row.model === TARGET)?.rank).toBe(1);
    // The live leaderboard leaves them out.
    expect(await rankOf()).toBe(before);

    // Listed for review with what the rules found; honest votes are not. The address group is judged
    // against the board's prediction (campaign), not by its run of picks (favours_one_model is per visitor).
    const flagged = await harness.client.request('GET', '/api/v1/admin/votes/flagged', undefined, admin);
    expect(flagged.status).toBe(200);
    const byDuel = new Map((flagged.json.votes as { duel_id: string; flags: string[] }[]).map((vote) => [vote.duel_id, vote.flags]));
    expect([...byDuel.keys()].sort()).toEqual([...attack].sort());
    for (const flags of byDuel.values()) expect(flags).toEqual(expect.arrayContaining(['too_fast', 'campaign', 'address_burst']));
    // A reviewer can put one back, and the log of admin actions says who.
    const reviewed = await harness.client.request(
      'PUT',
      `/api/v1/admin/votes/${attack[0]}`,
      { decision: 'count', reviewer: 'alice' },
      admin,
    );
    expect(reviewed).toMatchObject({ status: 200, json: { duel_id: attack[0], decision: 'count' } });
    const log = await harness.client.request('GET', `/api/v1/admin/review-log?duel_id=${attack[0]}`, undefined, admin);
    expect(JSON.stringify(log.json)).toContain('vote:count');
    const refused = await harness.client.request('PUT', `/api/v1/admin/votes/${attack[0]}`, { decision: 'count', reviewer: 'alice' });
    expect(refused.status).toBe(401);
  }, 60_000);
});
