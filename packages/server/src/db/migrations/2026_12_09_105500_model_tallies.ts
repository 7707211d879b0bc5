import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The pair records and languages the refreshing instance tallies (services/leaderboard.service.ts),
  // so that the model sheets of every other instance show the same (they only read snapshots).
  await db.schema
    .createTable('model_tallies')
    .addColumn('id', 'integer', (column) => column.primaryKey())
    .addColumn('generated_at', 'text', (column) => column.notNull())
    .addColumn('body', 'text', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('model_tallies').execute();
}
