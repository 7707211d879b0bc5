import type { Job, JobLog, JobPlan } from './job';
import { durationWords } from './job';
import { SweepJob } from './sweep.job';

const EVERY_MS = 60_000;

/**
 * Ends the turns a stopped process left streaming (their lease lapsed, or, for turns without one,
 * their deadline passed), those nobody watches included: every instance sweeps, and only one of
 * them ends each turn (a conditional update). Votes, follow-ups and followers end such a turn at
 * once when they meet it (services/duels/turn-lease.ts); the sweep is for the rest.
 */
export function interruptedTurnsPlan(): JobPlan {
  return {
    name: 'interrupted-turns',
    purpose: 'marks failed the turns a stopped or killed process left streaming, so that their duels can be voted on or continued',
    schedule: `at start, then every ${durationWords(EVERY_MS)}`,
    on: [],
    emits: [],
    lease: null,
    off: null,
  };
}

export function interruptedTurnsJob(duels: { failInterruptedTurns(): Promise<readonly string[]> }, log: JobLog): Job {
  const sweep = new SweepJob(() => duels.failInterruptedTurns(), EVERY_MS, {
    done: (duelIds) => {
      if (duelIds.length > 0) log.warn({ duels: duelIds }, 'turns left streaming by a stopped process marked failed');
    },
    error: (message, error) => log.error({ err: error }, message),
  });
  return { plan: interruptedTurnsPlan(), start: () => sweep.start(), stop: () => sweep.stop() };
}
