import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The rate-limit counters instances share on PostgreSQL (rate-limiter-flexible's layout: key,
  // points used, expiry in ms since the epoch). Keys are hashes of a visitor or an address, never
  // the cookie or the address itself; the library deletes expired rows every hour.
  await db.schema
    .createTable('agora_rate_limits')
    .ifNotExists()
    .addColumn('key', 'varchar(255)', (column) => column.primaryKey())
    .addColumn('points', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('agora_rate_limits').ifExists().execute();
}
