import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The interrupted-turns sweep (at start, then every minute on every instance) looks for turns
  // still `streaming`: without an index it read every turn, 55–215 ms on 250,000 turns and seconds
  // at millions, on SQLite's only connection. A partial index holds only the few streaming turns.
  await db.schema
    .createIndex('turns_streaming')
    .on('turns')
    .columns(['duel_id', 'turn'])
    .where(sql<boolean>`status = 'streaming'`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('turns_streaming').execute();
}
