import { randomBytes } from 'node:crypto';
import type { Store } from './unit-of-work';

/**
 * Work that one instance of several does at a time (post-processing passes, leaderboard fits):
 * the instance holding the store's lease on it does it and renews the lease each time; the others
 * do `otherwise`. A holder that dies is replaced once its lease has run out.
 */
export class SingletonLease {
  /** This process, among the instances sharing the store. */
  readonly owner = randomBytes(8).toString('hex');

  constructor(
    private readonly store: Store,
    /** The clock (the services' Runtime, or a test's). */
    private readonly runtime: { now(): Date },
  ) {}

  async whenHeld<T>(name: string, leaseMs: number, work: () => Promise<T>, otherwise: () => Promise<T>): Promise<T> {
    const now = this.runtime.now();
    const held = await this.store.leases.claim(
      `job:${name}`,
      this.owner,
      now.toISOString(),
      new Date(now.getTime() + leaseMs).toISOString(),
    );
    return held ? work() : otherwise();
  }
}
