import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Exports check every conversation for a visitor report: without this index each check scans the table.
  await db.schema.createIndex('reports_duel').on('reports').column('duel_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('reports_duel').execute();
}
