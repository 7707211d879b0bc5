import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Verdicts the arena's own visitors give on each turn (issue 34): a verdict may be changed until
  // the duel's vote, so it keeps when it last changed; and, like a vote, the hash of the client
  // address group it came from (integrity rules). The visitor is the duel's (duels.visitor_hash),
  // as for votes. Imported verdicts leave both null.
  await db.schema.alterTable('turn_verdicts').addColumn('updated_at', 'text').execute();
  await db.schema.alterTable('turn_verdicts').addColumn('client_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('turn_verdicts').dropColumn('client_hash').execute();
  await db.schema.alterTable('turn_verdicts').dropColumn('updated_at').execute();
}
