import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // "My duels" reads and erases a visitor's duels by the hash of their cookie, newest first
  // (db/repositories/visitor-duels.repository.ts): without it, each request scans every duel.
  await db.schema.createIndex('duels_visitor_hash').on('duels').columns(['visitor_hash', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('duels_visitor_hash').execute();
}
