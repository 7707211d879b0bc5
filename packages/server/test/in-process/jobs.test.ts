import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';
import { planJobs } from '../../src/jobs/registry';
import { TEST_MODELS } from '../test-arena';
import { type InProcessArena, startInProcessArena } from './harness';

/** The job registry (what `agora jobs` prints) and the jobs the composition root runs are the same list. */

let harness: InProcessArena | undefined;
afterEach(() => harness?.close());

const environments: { name: string; environment: Record<string, string> }[] = [
  { name: 'the defaults of the in-process arena', environment: {} },
  { name: 'post-processing on, retention off', environment: { AGORA_POSTPROCESS: 'true', AGORA_RETENTION_DAYS: '0' } },
];

describe('the background jobs, in process', () => {
  it.each(environments)('runs the jobs of the registry, in its order, with its plans: $name', async ({ environment }) => {
    harness = await startInProcessArena(environment);
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', AGORA_POSTPROCESS: 'false', ...environment });
    const planned = planJobs(config);
    const running = harness.arena.jobs.map((job) => job.plan);
    // Every job that runs is planned, with the same plan and in the same order; every job planned on runs.
    expect(running).toEqual(planned.filter((plan) => running.some((job) => job.name === plan.name)));
    expect(planned.filter((plan) => plan.off === null).every((plan) => running.some((job) => job.name === plan.name))).toBe(true);
    expect(running.length).toBeGreaterThanOrEqual(3);
  });

  it('refreshes the leaderboard on the vote.recorded event that a vote emits', async () => {
    harness = await startInProcessArena({
      AGORA_LEADERBOARD_EVERY_VOTES: '1',
      AGORA_LEADERBOARD_MIN_INTERVAL_S: '0',
      AGORA_LEADERBOARD_MIN_VOTES: '1',
      AGORA_INTEGRITY_MIN_VOTE_S: '0',
      // The duel picks its pair (custom mode): ranked on the main board with this switch.
      AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1',
    });
    const visitor = harness.visitor();
    const { id } = await visitor.playedDuel([TEST_MODELS[0].id, TEST_MODELS[1].id]);
    expect(harness.arena.leaderboards.latestOverall()?.n_votes ?? 0).toBe(0);
    expect((await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'a' })).status).toBe(200);
    await harness.arena.leaderboardRefresh.idle();
    expect(harness.arena.leaderboards.latestOverall()?.n_votes).toBe(1);
  });
});
