import { getRandomValues, randomBytes } from 'node:crypto';

/** The clock, id and randomness sources services use, injected so that tests can pin them. */
export interface Runtime {
  now: () => Date;
  /** A new unguessable id (128 bits, base64url): duel ids are capabilities, so they must not be enumerable. */
  newId: () => string;
  /** A uniform number in [0, 1) from a cryptographic source: model draws and side coins must not be predictable. */
  random: () => number;
}

export const systemRuntime: Runtime = {
  now: () => new Date(),
  newId: () => randomBytes(16).toString('base64url'),
  random: cryptoRandom,
};

const words = new Uint32Array(2);
/** 53 random bits as a double in [0, 1), the same resolution as Math.random. */
function cryptoRandom(): number {
  getRandomValues(words);
  return ((words[0]! >>> 5) * 67_108_864 + (words[1]! >>> 6)) / 9_007_199_254_740_992;
}

/**
 * Transactions stamp their rows (`created_at`, `updated_at`) before they commit; one that commits
 * up to this late after its stamp is still seen by the readers that follow changes by time (the
 * post-processing idle rule, the live leaderboard), which look back this far.
 */
export const LATE_COMMIT_MARGIN_MS = 60_000;
