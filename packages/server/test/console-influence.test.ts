import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, influenceSchema } from '@agora/contract';
import { storeInfluence } from '../src/services/rank-influence';
import { INFLUENCE_VOTES as votes, seedInfluenceVotes as seed } from './influence-seed';
import { type StaffClient, signedInStaff } from './staff-client';
import { DIALECTS } from './test-db';
import { type TestArena, startTestArena } from './test-arena';

const ADMIN_TOKEN = 'console-influence-admin-token';

describe.each(DIALECTS)('the console’s rank influence ($name)', (dialect) => {
  let harness: TestArena;
  let reviewer: StaffClient;
  const get = (query: string) => reviewer.request('GET', `/api/v1/admin/influence${query}`);

  beforeAll(async () => {
    harness = await startTestArena(dialect, { environment: { AGORA_ADMIN_TOKEN: ADMIN_TOKEN, AGORA_LEADERBOARD_MIN_VOTES: '1' } });
    reviewer = await signedInStaff(harness.arena, harness.baseUrl, 'influence-reviewer@example.org', 'reviewer');
  }, 60_000);
  afterAll(() => harness?.close());

  it('answers an empty board with no model, and refuses the anonymous and bad queries', async () => {
    const empty = await get('');
    expect(empty.status).toBe(200);
    expect(influenceSchema.parse(empty.json)).toMatchObject({ votes: 0, models: [], plans: [], by: 'visitor' });

    const anonymous = await fetch(`${harness.baseUrl}/api/v1/admin/influence`);
    expect(anonymous.status).toBe(401);
    expect(errorBodySchema.parse(await anonymous.json()).error.code).toBe('unauthorized');

    for (const query of ['?top=0', '?top=51', '?top=ten', '?by=cookie', '?include_flagged=yes', '?model=', '?colour=red']) {
      const refused = await get(query);
      expect(refused.status, query).toBe(400);
      expect(errorBodySchema.parse(refused.json).error.code, query).toBe('invalid_request');
    }
  });

  it('puts the pushing address first for m4 with an alert, with the numbers of the service the CLI uses', async () => {
    await seed(harness.arena.store, votes);
    await harness.arena.leaderboards.refresh();
    const answer = await get('?by=address&model=m4&top=3&include_flagged=true');
    expect(answer.status).toBe(200);
    const body = influenceSchema.parse(answer.json);
    expect(body.votes).toBe(votes.length);
    expect(body.models.map((entry) => entry.model)).toEqual(['m4']);
    const [m4] = body.models;
    expect(m4!.groups).toHaveLength(3);
    expect(m4!.groups[0]).toMatchObject({ group: 'push-address', votes: 40, votes_on_model: 40, alert: true });
    expect(m4!.alert).toBe(true);

    const service = await storeInfluence(harness.arena.store, 'address', { includeFlagged: true, top: 3 });
    const expected = service.models.find((entry) => entry.model === 'm4')!;
    expect(m4!.rating).toBeCloseTo(expected.rating, 2);
    expect(m4!.half_width).toBeCloseTo(expected.halfWidth, 2);
    m4!.groups.forEach((group, index) => {
      const reference = expected.groups[index]!;
      expect(group.group).toBe(reference.group.slice(0, 16));
      expect(group.points).toBeCloseTo(reference.points, 2);
      expect([group.votes, group.votes_on_model, group.rank_before, group.rank_after]).toEqual([
        reference.votes,
        reference.votesOnModel,
        reference.rankBefore,
        reference.rankAfter,
      ]);
    });
    expect(m4!.groups[0]!.points).toBeLessThan(-30);
    expect(body.plans.every((plan) => plan.higher === 'm4' || plan.lower === 'm4')).toBe(true);
    expect(body.plans).toEqual(
      service.plans
        .filter((plan) => plan.higher === 'm4' || plan.lower === 'm4')
        .map((plan) => expect.objectContaining({ higher: plan.higher, lower: plan.lower, votes_between: plan.votesBetween })),
    );
  });

  it('without a model, lists every model, the one its top group moves most first; unknown model 404', async () => {
    const body = influenceSchema.parse((await get('?by=address&include_flagged=true&top=1')).json);
    expect(body.models.length).toBeGreaterThan(2);
    const strongest = body.models.map((entry) => Math.abs(entry.groups[0]!.points));
    expect(strongest).toEqual([...strongest].sort((x, y) => y - x));
    expect(body.models[0]!.groups[0]!.group).toBe('push-address');

    const unknown = await get('?model=no-such-model');
    expect(unknown.status).toBe(404);
    expect(errorBodySchema.parse(unknown.json).error.code).toBe('not_found');
  });

  it('keeps its answer until the next leaderboard refresh, and counts the new votes after it', async () => {
    const before = influenceSchema.parse((await get('?by=address&include_flagged=true')).json);
    await seed(harness.arena.store, votes.slice(0, 30), votes.length);
    const kept = influenceSchema.parse((await get('?by=address&include_flagged=true')).json);
    expect(kept).toEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await harness.arena.leaderboards.refresh();
    const after = influenceSchema.parse((await get('?by=address&include_flagged=true')).json);
    expect(after.votes).toBe(votes.length + 30);
    expect(after.board_generated_at).not.toBe(before.board_generated_at);
  });

  it('answers the admin token too', async () => {
    const response = await fetch(`${harness.baseUrl}/api/v1/admin/influence?by=visitor`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(influenceSchema.parse(await response.json()).by).toBe('visitor');
  });
});
