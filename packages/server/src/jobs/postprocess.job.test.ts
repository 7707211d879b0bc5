import { describe, expect, it } from 'vitest';
import type { PostprocessReport, PostprocessService } from '../services/postprocess.service';
import { PostprocessJob } from './postprocess.job';

const empty: PostprocessReport = { processed: 0, done: 0, flagged: 0, retrying: 0, failed: 0 };

/** A service that counts passes and answers after `passMs`. */
function countingService(passMs = 5, processed = () => 0) {
  const calls: number[] = [];
  const service = {
    runDue: async (limit: number) => {
      calls.push(limit);
      await new Promise((resolve) => setTimeout(resolve, passMs));
      return { ...empty, processed: processed() };
    },
  } as unknown as PostprocessService;
  return { service, calls };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the post-processing job', () => {
  it('gives a burst of votes one pass, run shortly after the first vote', async () => {
    const { service, calls } = countingService();
    const job = new PostprocessJob(service, { everyMs: 60_000, afterVoteMs: 40, batchSize: 10 }, () => {});
    for (let vote = 0; vote < 500; vote++) job.voteRecorded();
    expect(calls).toHaveLength(0);
    await sleep(80);
    await job.idle();
    expect(calls).toHaveLength(1);
    job.voteRecorded();
    await sleep(80);
    await job.idle();
    expect(calls).toHaveLength(2);
    await job.stop();
  });

  it('runs one more pass when asked during a pass, and keeps going while passes come back full', async () => {
    let full = 2;
    const { service, calls } = countingService(20, () => (full-- > 0 ? 10 : 3));
    const job = new PostprocessJob(service, { everyMs: 60_000, afterVoteMs: 1, batchSize: 10 }, () => {});
    job.nudge();
    job.nudge();
    job.nudge();
    await sleep(150);
    await job.idle();
    // Two full pages, then a partial one; the nudges during the first pass were folded into the rest.
    expect(calls).toHaveLength(3);
    await job.stop();
  });

  it('does nothing after stop, even for a vote recorded just before', async () => {
    const { service, calls } = countingService();
    const job = new PostprocessJob(service, { everyMs: 60_000, afterVoteMs: 20, batchSize: 10 }, () => {});
    job.voteRecorded();
    await job.stop();
    job.voteRecorded();
    job.nudge();
    await sleep(50);
    expect(calls).toHaveLength(0);
  });
});
