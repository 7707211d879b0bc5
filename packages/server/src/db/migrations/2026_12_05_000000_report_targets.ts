import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // What a report is about: its category (personal_data, harmful, misleading, other) and, for a report
  // of one answer, its turn and side (both null: the whole conversation). Reports from before were
  // free text about the whole conversation: they are `other`, which is what a free-text reason is.
  await db.schema
    .alterTable('reports')
    .addColumn('category', 'text', (column) => column.notNull().defaultTo('other'))
    .execute();
  await db.schema.alterTable('reports').addColumn('turn', 'integer').execute();
  await db.schema.alterTable('reports').addColumn('side', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('reports').dropColumn('side').execute();
  await db.schema.alterTable('reports').dropColumn('turn').execute();
  await db.schema.alterTable('reports').dropColumn('category').execute();
}
