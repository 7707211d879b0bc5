import { describe, expect, it } from 'vitest';
import type { PostprocessReport, PostprocessService } from '../services/postprocess/postprocess.service';
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
    const job = new PostprocessJob(service, { everyMs: 60_000, afterVoteMs: 40, batchSize: 10, catchUpShare: 1 }, () => {});
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
    const job = new PostprocessJob(service, { everyMs: 60_000, afterVoteMs: 1, batchSize: 10, catchUpShare: 1 }, () => {});
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
    const job = new PostprocessJob(service, { everyMs: 60_000, afterVoteMs: 20, batchSize: 10, catchUpShare: 1 }, () => {});
    job.voteRecorded();
    await job.stop();
    job.voteRecorded();
    job.nudge();
    await sleep(50);
    expect(calls).toHaveLength(0);
  });

  /** A service whose passes keep the event loop busy for `busyMs` (the rules and language detection are CPU work). */
  function busyService(busyMs: number, processed: () => number) {
    const ends: number[] = [];
    const service = {
      runDue: async () => {
        await Promise.resolve();
        const until = performance.now() + busyMs;
        while (performance.now() < until);
        ends.push(performance.now());
        return { ...empty, processed: processed() };
      },
    } as unknown as PostprocessService;
    return { service, ends };
  }

  it('works off a backlog page by page, pausing after each full page as long as the event loop was busy (share 0.5)', async () => {
    let full = 3;
    const { service, ends } = busyService(30, () => (full-- > 0 ? 10 : 3));
    const job = new PostprocessJob(service, { everyMs: 60_000, afterVoteMs: 1, batchSize: 10, catchUpShare: 0.5 }, () => {});
    job.nudge();
    await job.idle();
    // Four passes busy for 30 ms each; the three full ones are each followed by a pause of at least 30 ms.
    expect(ends).toHaveLength(4);
    for (let index = 1; index < ends.length; index++) expect(ends[index]! - ends[index - 1]!).toBeGreaterThanOrEqual(55);
    await job.stop();
  });

  it('folds a nudge made during a pause into the pass that ends it', async () => {
    let full = 1;
    const { service, ends } = busyService(20, () => (full-- > 0 ? 10 : 3));
    const job = new PostprocessJob(service, { everyMs: 60_000, afterVoteMs: 1, batchSize: 10, catchUpShare: 0.2 }, () => {});
    job.nudge();
    // The first pass is full: a pause of about 80 ms follows it.
    await sleep(40);
    job.nudge();
    await job.idle();
    await sleep(30);
    expect(ends).toHaveLength(2);
    await job.stop();
  });

  it('arms no pause once stopped: stop during a full pass leaves nothing to wait for', async () => {
    const { service, ends } = busyService(50, () => 10);
    const job = new PostprocessJob(service, { everyMs: 60_000, afterVoteMs: 1, batchSize: 10, catchUpShare: 0.1 }, () => {});
    job.nudge();
    await job.stop();
    // A pause after this pass would last about 450 ms, and idle() would wait for it.
    const waited = performance.now();
    await job.idle();
    expect(performance.now() - waited).toBeLessThan(200);
    await sleep(50);
    expect(ends).toHaveLength(1);
  });
});
