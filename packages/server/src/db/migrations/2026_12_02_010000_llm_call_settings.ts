import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // What each call of the optimised set was sent (output budget, temperature, seed) and how its
  // answer ended (a normal stop, or cut on length): the card reports both, and an answer that did
  // not end normally is never reused as a complete one.
  await db.schema.alterTable('llm_calls').addColumn('finish_reason', 'text').execute();
  await db.schema.alterTable('llm_calls').addColumn('settings_json', 'text').execute();
}
