import { describe, expect, it } from 'vitest';
import { LeaderboardRefreshJob } from './leaderboard-refresh.job';

function countingService(durationMs = 0) {
  const service = {
    refreshes: 0,
    refresh: async () => {
      service.refreshes += 1;
      await new Promise((resolve) => setTimeout(resolve, durationMs));
      return { views: 0, votes: 0 };
    },
  };
  return service;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('LeaderboardRefreshJob', () => {
  it('refreshes at start, then after every K votes', async () => {
    const service = countingService();
    const job = new LeaderboardRefreshJob(service, { everyVotes: 3, everyMs: 60_000, minIntervalMs: 0 }, () => {});
    job.start();
    await job.idle();
    expect(service.refreshes).toBe(1);
    job.voteRecorded();
    job.voteRecorded();
    await job.idle();
    expect(service.refreshes).toBe(1);
    job.voteRecorded();
    await job.idle();
    expect(service.refreshes).toBe(2);
    await job.stop();
  });

  it('refreshes after T when votes arrived, not when none did', async () => {
    const service = countingService();
    const job = new LeaderboardRefreshJob(service, { everyVotes: 1000, everyMs: 50, minIntervalMs: 0 }, () => {});
    job.start();
    await sleep(160);
    expect(service.refreshes).toBe(1);
    job.voteRecorded();
    await sleep(120);
    await job.idle();
    expect(service.refreshes).toBe(2);
    await job.stop();
  });

  it('runs one refresh at a time and keeps them apart by the minimum interval under a burst', async () => {
    const service = countingService(20);
    const job = new LeaderboardRefreshJob(service, { everyVotes: 1, everyMs: 60_000, minIntervalMs: 150 }, () => {});
    job.start();
    for (let vote = 0; vote < 200; vote += 1) job.voteRecorded();
    await sleep(100);
    expect(service.refreshes).toBe(1);
    await job.idle();
    expect(service.refreshes).toBe(2);
    await job.stop();
  });

  it('starts nothing once stopped, whatever triggers it (a screened conversation at shutdown)', async () => {
    const service = countingService();
    const job = new LeaderboardRefreshJob(service, { everyVotes: 1, everyMs: 60_000, minIntervalMs: 0 }, () => {});
    job.start();
    await job.idle();
    await job.stop();
    job.trigger();
    job.voteRecorded();
    await job.idle();
    expect(service.refreshes).toBe(1);
  });

  it('logs a failed refresh and keeps going', async () => {
    const errors: string[] = [];
    let calls = 0;
    const service = {
      refresh: async () => {
        calls += 1;
        if (calls === 1) throw new Error('store down');
        return { views: 0, votes: 0 };
      },
    };
    const job = new LeaderboardRefreshJob(service, { everyVotes: 1, everyMs: 60_000, minIntervalMs: 0 }, (message) => errors.push(message));
    job.start();
    await job.idle();
    job.voteRecorded();
    await job.idle();
    expect(errors).toEqual(['leaderboard refresh failed']);
    expect(calls).toBe(2);
    await job.stop();
  });
});
