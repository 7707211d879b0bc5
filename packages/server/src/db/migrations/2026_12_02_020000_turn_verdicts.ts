import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // A verdict on one turn of a duel (A better, B better, both good, both bad), as compar:IA's
  // per-response arena data gives it: `source_id` is the source row's id (its `response_id`).
  await db.schema
    .createTable('turn_verdicts')
    .addColumn('duel_id', 'text', (column) => column.notNull().references('duels.id').onDelete('cascade'))
    .addColumn('turn', 'integer', (column) => column.notNull())
    .addColumn('choice', 'text', (column) => column.notNull())
    .addColumn('source_id', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('turn_verdicts_pk', ['duel_id', 'turn'])
    .execute();
}
