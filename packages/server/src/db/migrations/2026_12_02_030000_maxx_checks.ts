import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // People checking the optimised set: a pair shown to a visitor (the set's reply and an original,
  // blind, in random order) and the visitor's choice. Keyed by the item (not by the run) and by a
  // digest of the reply shown, so that any run that kept the same reply reads the same checks.
  await db.schema
    .createTable('maxx_checks')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('item_key', 'text', (column) => column.notNull())
    .addColumn('optimal_digest', 'text', (column) => column.notNull())
    .addColumn('optimal_side', 'text', (column) => column.notNull())
    .addColumn('visitor_hash', 'text', (column) => column.notNull())
    .addColumn('address_hash', 'text')
    .addColumn('shown_at', 'text', (column) => column.notNull())
    .addColumn('choice', 'text')
    .addColumn('chosen_at', 'text')
    .addColumn('flag', 'text')
    .execute();
  await db.schema.createIndex('maxx_checks_item').on('maxx_checks').columns(['item_key', 'optimal_digest']).execute();
  await db.schema.createIndex('maxx_checks_visitor').on('maxx_checks').columns(['visitor_hash', 'item_key']).execute();
}
