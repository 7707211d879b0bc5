import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Each publication (an `agora export`, an optimised set assembled by `agora maxx --out`) with the
  // figures of its card, so that the datasets page says what was published without reading files.
  await db.schema
    .createTable('dataset_builds')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('summary_json', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('dataset_builds_kind_created').on('dataset_builds').columns(['kind', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dataset_builds').execute();
}
