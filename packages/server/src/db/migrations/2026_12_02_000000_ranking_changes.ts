import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The live leaderboard keeps its votes between refreshes and reads only what changed since the
  // last one, by time: new votes (votes_created_at), annotated conversations and reviewed votes.
  await db.schema
    .createIndex('conversation_annotations_updated_at')
    .on('conversation_annotations')
    .columns(['updated_at', 'duel_id'])
    .execute();
  await db.schema.createIndex('vote_reviews_decided_at').on('vote_reviews').columns(['decided_at', 'duel_id']).execute();
  // Changes that rewrite votes already read (a retention purge, an import) bump the epoch: a
  // leaderboard that sees a new epoch reads every vote again.
  await db.schema
    .createTable('ranking_epoch')
    .addColumn('id', 'integer', (column) => column.primaryKey())
    .addColumn('epoch', 'integer', (column) => column.notNull())
    .execute();
  await sql`INSERT INTO ranking_epoch (id, epoch) VALUES (1, 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ranking_epoch').execute();
  await db.schema.dropIndex('vote_reviews_decided_at').execute();
  await db.schema.dropIndex('conversation_annotations_updated_at').execute();
}
