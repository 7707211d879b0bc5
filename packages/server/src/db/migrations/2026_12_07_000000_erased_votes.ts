import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // A visitor's erased vote, by its duel id only (the duel and everything in it are gone): every
  // instance's next leaderboard refresh drops it from the votes it keeps, without reading every vote
  // again (db/repositories/visitor-duels.repository.ts, services/leaderboard.service.ts).
  await db.schema
    .createTable('erased_votes')
    .addColumn('duel_id', 'text', (column) => column.primaryKey())
    .addColumn('erased_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('erased_votes_erased_at').on('erased_votes').column('erased_at').execute();
  // An export whose files may hold an erased duel stops serving them (services/published-datasets.service.ts)
  // until the next export, which no longer holds it.
  await db.schema.alterTable('dataset_builds').addColumn('downloads_withdrawn_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('dataset_builds').dropColumn('downloads_withdrawn_at').execute();
  await db.schema.dropTable('erased_votes').execute();
}
