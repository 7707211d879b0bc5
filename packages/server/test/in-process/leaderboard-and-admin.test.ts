import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_MODELS } from '../test-arena';
import { type InProcessArena, startInProcessArena } from './harness';

/** The leaderboard and the admin API over the real services, on an in-memory store. */

const adminToken = 'an-admin-token-for-tests';
const [first, second, third] = TEST_MODELS.map((model) => model.id) as [string, string, string];

let harness: InProcessArena;
beforeEach(async () => {
  // The duels pick their pairs (custom mode); AGORA_LEADERBOARD_CUSTOM_ON_MAIN ranks them on the main board.
  harness = await startInProcessArena({
    AGORA_ADMIN_TOKEN: adminToken,
    AGORA_LEADERBOARD_MIN_VOTES: '1',
    AGORA_INTEGRITY_MIN_VOTE_S: '0',
    AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1',
  });
});
afterEach(() => harness.close());

/** Plays a duel of these two models and votes a tie. */
async function tieBetween(models: [string, string]): Promise<void> {
  const visitor = harness.visitor();
  const { id } = await visitor.playedDuel(models);
  const vote = await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'tie' });
  if (vote.status !== 200) throw new Error(`vote refused: ${JSON.stringify(vote.json)}`);
}

describe('the leaderboard, in process', () => {
  it('ranks the votes after a refresh, and not before', async () => {
    for (let round = 0; round < 4; round += 1) await tieBetween([first, second]);
    await tieBetween([second, third]);
    expect((await harness.visitor().request('GET', '/api/v1/leaderboard')).json.models ?? []).toHaveLength(0);
    await harness.arena.leaderboards.refresh();
    const board = await harness.visitor().request('GET', '/api/v1/leaderboard');
    expect(board.status).toBe(200);
    const rows = board.json.models as { model: string; n_battles: number; ties: number }[];
    expect(rows.map((row) => row.model).sort()).toEqual([first, second, third].sort());
    expect(rows.find((row) => row.model === first)).toMatchObject({ n_battles: 4, ties: 4 });
    expect(rows.find((row) => row.model === second)).toMatchObject({ n_battles: 5, ties: 5 });
  });

  it('refuses an unknown view filter with the JSON error shape', async () => {
    const answer = await harness.visitor().request('GET', '/api/v1/leaderboard?style=sideways');
    expect(answer).toMatchObject({ status: 400, json: { error: { code: 'invalid_request' } } });
  });
});

describe('the admin API, in process', () => {
  it('is behind the bearer token', async () => {
    const visitor = harness.visitor();
    expect((await visitor.request('GET', '/api/v1/admin/upstream-errors')).status).toBe(401);
    expect((await visitor.request('GET', '/api/v1/admin/upstream-errors', undefined, { authorization: 'Bearer nope' })).status).toBe(401);
    const view = await visitor.request('GET', '/api/v1/admin/upstream-errors?hours=1', undefined, {
      authorization: `Bearer ${adminToken}`,
    });
    expect(view).toMatchObject({ status: 200, json: { models: [] } });
  });

  it('counts a refused upstream call per model and kind', async () => {
    harness.models.script(first, { refuse: 500 }, { refuse: 500 }, { refuse: 500 });
    const visitor = harness.visitor();
    await visitor.playedDuel([first, second]);
    const view = await visitor.request('GET', '/api/v1/admin/upstream-errors?hours=1', undefined, {
      authorization: `Bearer ${adminToken}`,
    });
    expect(view.json.models).toEqual(expect.arrayContaining([expect.objectContaining({ model: first, kind: 'http_error' })]));
  });
});
