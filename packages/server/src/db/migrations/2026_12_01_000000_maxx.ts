import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Every LLM call of the optimised preference set, by the hash of what was asked (model, messages,
  // output format): a rerun or a resumed run pays for nothing it already has.
  await db.schema
    .createTable('llm_calls')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('role', 'text', (column) => column.notNull())
    .addColumn('step', 'text', (column) => column.notNull())
    .addColumn('model_id', 'text', (column) => column.notNull())
    .addColumn('response', 'text', (column) => column.notNull())
    .addColumn('input_tokens', 'integer')
    .addColumn('output_tokens', 'integer')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  // The outcome of each item of a run (kept with its row, or dropped with the reason), so that a
  // crashed run resumes where it stopped and the final assembly reads only this table.
  await db.schema
    .createTable('maxx_items')
    .addColumn('item_key', 'text', (column) => column.primaryKey())
    .addColumn('run_key', 'text', (column) => column.notNull())
    .addColumn('subset', 'text', (column) => column.notNull())
    .addColumn('source_id', 'text', (column) => column.notNull())
    .addColumn('language', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('reason', 'text')
    .addColumn('row_json', 'text')
    .addColumn('stats_json', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('maxx_items_run').on('maxx_items').columns(['run_key', 'subset']).execute();
  // Which worker holds an item, until when: a worker renews its lease while it works, and a dead
  // worker's item is taken over once the lease has run out.
  await db.schema
    .createTable('maxx_claims')
    .addColumn('item_key', 'text', (column) => column.primaryKey())
    .addColumn('owner', 'text', (column) => column.notNull())
    .addColumn('lease_until', 'text', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('maxx_claims').execute();
  await db.schema.dropTable('maxx_items').execute();
  await db.schema.dropTable('llm_calls').execute();
}
