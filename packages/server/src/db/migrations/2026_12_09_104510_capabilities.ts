import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // A conversation's capability labels (docs/ranking.md#capability-views): a JSON list, null until
  // post-processing labelled it (then the next pass labels it: see AnnotationRepository.listDue).
  await db.schema.alterTable('conversation_annotations').addColumn('capabilities', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('conversation_annotations').dropColumn('capabilities').execute();
}
