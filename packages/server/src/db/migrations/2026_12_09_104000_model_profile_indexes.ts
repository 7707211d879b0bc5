import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // A model sheet counts the tags ticked on its answers (db/repositories/model-profile.repository.ts):
  // partial indexes over the tagged votes of each side and the reactions of each model, so that a
  // sheet reads its model's rows only, never every vote.
  await db.schema.createIndex('votes_tagged_model_a').on('votes').column('model_a').where(sql.ref('tags_a'), '<>', '[]').execute();
  await db.schema.createIndex('votes_tagged_model_b').on('votes').column('model_b').where(sql.ref('tags_b'), '<>', '[]').execute();
  await db.schema.createIndex('reactions_model').on('reactions').column('model_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('reactions_model').execute();
  await db.schema.dropIndex('votes_tagged_model_b').execute();
  await db.schema.dropIndex('votes_tagged_model_a').execute();
}
