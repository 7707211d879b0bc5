import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Whether a duel's prompts are charged to its visitor's budget for costly models: decided when it
  // starts, from what the visitor asked and what was left of the budget, never from the models
  // drawn, so that its follow-ups are charged (or refused) alike whoever is in it. Duels from
  // before were charged only when they held a costly model, which cannot be told apart here without
  // the catalogue: they count as not charged (the prompts limit and AGORA_MAX_TURNS still bound
  // them), as do imported duels, which get no follow-ups.
  await db.schema
    .alterTable('duels')
    .addColumn('charges_costly_budget', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('duels').dropColumn('charges_costly_budget').execute();
}
