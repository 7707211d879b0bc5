import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Each target (the conversation, or one answer) is reported once. INSERT … WHERE NOT EXISTS alone
  // does not hold that on PostgreSQL: two reports at once both see no row and both insert (READ
  // COMMITTED). Reports that raced in before this index are kept once, the first of each target.
  await sql`
    DELETE FROM reports WHERE EXISTS (
      SELECT 1 FROM reports AS earlier
      WHERE earlier.duel_id = reports.duel_id
        AND COALESCE(earlier.turn, 0) = COALESCE(reports.turn, 0)
        AND COALESCE(earlier.side, '') = COALESCE(reports.side, '')
        AND (earlier.created_at < reports.created_at OR (earlier.created_at = reports.created_at AND earlier.id < reports.id))
    )`.execute(db);
  // A whole-conversation report has turn and side null: COALESCE makes it one key like the others.
  await sql`CREATE UNIQUE INDEX reports_target ON reports (duel_id, (COALESCE(turn, 0)), (COALESCE(side, '')))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('reports_target').execute();
}
