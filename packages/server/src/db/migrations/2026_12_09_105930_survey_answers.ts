import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The population survey (issue 34 item 6): one row per visitor cookie hash, its answers or its
  // skip, so that the survey is never shown again and the weighted board can rake the answers.
  // No address, no duel, no free text: the answers are option ids of the operator's questions.
  await db.schema
    .createTable('survey_answers')
    .addColumn('visitor_hash', 'text', (column) => column.primaryKey())
    .addColumn('answers', 'text')
    .addColumn('answered_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('survey_answers_answered_at').on('survey_answers').column('answered_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('survey_answers').execute();
}
