import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The console's models (docs/operations.md#models): what the operator changed over models.yaml,
  // one row per model. `override` holds the facts changed (a partial entry), `added` a whole entry.
  await db.schema
    .createTable('model_overrides')
    .addColumn('model_id', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('body', 'text', (column) => column.notNull())
    .addColumn('updated_by', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  // One row: bumped in the same transaction as every change, so that each instance's light poll
  // reads one integer and re-reads the overrides only when it moved (a reset deletes a row, which
  // no max(updated_at) would see).
  await db.schema
    .createTable('model_catalogue_stamp')
    .addColumn('id', 'integer', (column) => column.primaryKey())
    .addColumn('version', 'integer', (column) => column.notNull())
    .addColumn('changed_at', 'text', (column) => column.notNull())
    .execute();
  await db
    .insertInto('model_catalogue_stamp' as never)
    .values({ id: 1, version: 0, changed_at: '1970-01-01T00:00:00.000Z' })
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('model_catalogue_stamp').execute();
  await db.schema.dropTable('model_overrides').execute();
}
