import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Post-processing looks only at duels changed since its last pass (a range on updated_at), at
  // annotations whose retry is due (status, next_attempt_at), and at those screened without the
  // model layer once one is configured (model_status, status): never a scan of every conversation.
  await db.schema.createIndex('duels_updated_at').on('duels').column('updated_at').execute();
  await db.schema
    .createIndex('conversation_annotations_model_status')
    .on('conversation_annotations')
    .columns(['model_status', 'status'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('conversation_annotations_model_status').execute();
  await db.schema.dropIndex('duels_updated_at').execute();
}
