import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The client address a vote came from, hashed (never the address): bursts and stuffing from one
  // address are found by the integrity rules.
  await db.schema.alterTable('votes').addColumn('client_hash', 'text').execute();
  // A reviewer's decision on a vote the integrity rules flagged: `count` puts it back in the
  // leaderboard, `exclude` keeps it out whatever the rules say later.
  await db.schema
    .createTable('vote_reviews')
    .addColumn('duel_id', 'text', (column) => column.primaryKey())
    .addColumn('decision', 'text', (column) => column.notNull())
    .addColumn('reviewer', 'text', (column) => column.notNull())
    .addColumn('decided_at', 'text', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('vote_reviews').execute();
  await db.schema.alterTable('votes').dropColumn('client_hash').execute();
}
