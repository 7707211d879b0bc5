import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // What the ranking needs from a vote, fixed when the vote is cast: style counts and output tokens
  // of each side's whole conversation, and the energy shown on the reveal (JSON {min, max}).
  for (const column of ['style_a', 'style_b', 'energy_a', 'energy_b']) {
    await db.schema.alterTable('votes').addColumn(column, 'text').execute();
  }
  for (const column of ['tokens_a', 'tokens_b']) {
    await db.schema.alterTable('votes').addColumn(column, 'integer').execute();
  }
  // Style counts of one answer (tokens, headers, list items, bold), counted when its turn ends.
  await db.schema.alterTable('turn_sides').addColumn('style', 'text').execute();
  await db.schema
    .createTable('leaderboard_snapshots')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('view', 'text', (column) => column.notNull())
    .addColumn('generated_at', 'text', (column) => column.notNull())
    .addColumn('n_votes', 'integer', (column) => column.notNull())
    .addColumn('body', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('leaderboard_snapshots_view').on('leaderboard_snapshots').columns(['view', 'generated_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('leaderboard_snapshots').execute();
  await db.schema.alterTable('turn_sides').dropColumn('style').execute();
  for (const column of ['style_a', 'style_b', 'energy_a', 'energy_b', 'tokens_a', 'tokens_b']) {
    await db.schema.alterTable('votes').dropColumn(column).execute();
  }
}
