import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Until when the process running a turn vouches for it (ISO text, like the other times): set when
  // the turn starts, renewed every few seconds while it streams. Once it has passed, the process is
  // taken for dead and any instance may end the turn as interrupted. Turns from before, and turns
  // no longer streaming, have none: only their start time tells whether they were cut.
  await db.schema.alterTable('turns').addColumn('lease_until', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('turns').dropColumn('lease_until').execute();
}
