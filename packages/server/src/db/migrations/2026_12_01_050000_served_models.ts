import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // What the provider said it served for each answer, and whether that is another model than the
  // catalogue's (domain/arena/served-model.ts); a vote on such a duel carries the flag.
  await db.schema.alterTable('turn_sides').addColumn('served_model', 'text').execute();
  await db.schema
    .alterTable('turn_sides')
    .addColumn('served_model_mismatch', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('votes')
    .addColumn('served_model_mismatch', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('votes').dropColumn('served_model_mismatch').execute();
  await db.schema.alterTable('turn_sides').dropColumn('served_model_mismatch').execute();
  await db.schema.alterTable('turn_sides').dropColumn('served_model').execute();
}
