import type { Kysely } from 'kysely';
import type { Database } from '../database';

/**
 * Leases in the store: who holds a piece of work until when. Several processes (workers of the
 * optimised set, instances of the arena) take them; a holder renews its lease while it works, and
 * a dead holder's lease is taken over once it has run out.
 */
export class LeaseRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Takes or renews the lease on `key` until `leaseUntil`; false while another owner holds it. */
  async claim(key: string, owner: string, now: string, leaseUntil: string): Promise<boolean> {
    const taken = await this.db
      .insertInto('leases')
      .values({ lease_key: key, owner, lease_until: leaseUntil })
      .onConflict((conflict) =>
        conflict
          .column('lease_key')
          .doUpdateSet({ owner, lease_until: leaseUntil })
          .where((eb) => eb.or([eb('leases.lease_until', '<', now), eb('leases.owner', '=', owner)])),
      )
      .returning('lease_key')
      .executeTakeFirst();
    return taken !== undefined;
  }

  /** Ends `owner`'s lease on `key` before it runs out; another owner's lease is left alone. */
  async release(key: string, owner: string): Promise<void> {
    await this.db.deleteFrom('leases').where('lease_key', '=', key).where('owner', '=', owner).execute();
  }
}
