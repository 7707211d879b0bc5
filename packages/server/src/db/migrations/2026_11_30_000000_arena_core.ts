import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('duels')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('visitor_hash', 'text', (column) => column.notNull())
    .addColumn('mode', 'text', (column) => column.notNull())
    .addColumn('model_a', 'text', (column) => column.notNull())
    .addColumn('model_b', 'text', (column) => column.notNull())
    .addColumn('chosen_models', 'text')
    .addColumn('locale', 'text')
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('turn_count', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('duels_created_at').on('duels').column('created_at').execute();

  await db.schema
    .createTable('turns')
    .addColumn('duel_id', 'text', (column) => column.notNull().references('duels.id').onDelete('cascade'))
    .addColumn('turn', 'integer', (column) => column.notNull())
    .addColumn('prompt', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('error_code', 'text')
    .addColumn('frames', 'text')
    .addColumn('started_at', 'text', (column) => column.notNull())
    .addColumn('ended_at', 'text')
    .addPrimaryKeyConstraint('turns_pk', ['duel_id', 'turn'])
    .execute();

  await db.schema
    .createTable('turn_sides')
    .addColumn('duel_id', 'text', (column) => column.notNull())
    .addColumn('turn', 'integer', (column) => column.notNull())
    .addColumn('side', 'text', (column) => column.notNull())
    .addColumn('model_id', 'text', (column) => column.notNull())
    .addColumn('text', 'text', (column) => column.notNull())
    .addColumn('reasoning', 'text')
    .addColumn('output_tokens', 'integer')
    .addColumn('output_tokens_source', 'text')
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('error_kind', 'text')
    .addColumn('finish_reason', 'text')
    .addColumn('ttft_ms', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('identity_leak', 'integer', (column) => column.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('turn_sides_pk', ['duel_id', 'turn', 'side'])
    .addForeignKeyConstraint('turn_sides_turn_fk', ['duel_id', 'turn'], 'turns', ['duel_id', 'turn'], (constraint) =>
      constraint.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('turn_sides_model').on('turn_sides').column('model_id').execute();

  await db.schema
    .createTable('upstream_errors')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('duel_id', 'text', (column) => column.notNull().references('duels.id').onDelete('cascade'))
    .addColumn('turn', 'integer', (column) => column.notNull())
    .addColumn('side', 'text', (column) => column.notNull())
    .addColumn('model_id', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('message', 'text', (column) => column.notNull())
    .addColumn('replaced', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('upstream_errors_model').on('upstream_errors').columns(['model_id', 'created_at']).execute();

  await db.schema
    .createTable('reactions')
    .addColumn('duel_id', 'text', (column) => column.notNull().references('duels.id').onDelete('cascade'))
    .addColumn('turn', 'integer', (column) => column.notNull())
    .addColumn('side', 'text', (column) => column.notNull())
    .addColumn('model_id', 'text', (column) => column.notNull())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('tags', 'text', (column) => column.notNull())
    .addColumn('comment', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('reactions_pk', ['duel_id', 'turn', 'side'])
    .execute();

  await db.schema
    .createTable('votes')
    .addColumn('duel_id', 'text', (column) => column.primaryKey().references('duels.id').onDelete('cascade'))
    .addColumn('choice', 'text', (column) => column.notNull())
    .addColumn('model_a', 'text', (column) => column.notNull())
    .addColumn('model_b', 'text', (column) => column.notNull())
    .addColumn('tags_a', 'text', (column) => column.notNull())
    .addColumn('tags_b', 'text', (column) => column.notNull())
    .addColumn('comment_a', 'text')
    .addColumn('comment_b', 'text')
    .addColumn('identity_leak', 'integer', (column) => column.notNull())
    .addColumn('mode', 'text', (column) => column.notNull())
    .addColumn('locale', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('votes_created_at').on('votes').column('created_at').execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('duel_id', 'text', (column) => column.notNull().references('duels.id').onDelete('cascade'))
    .addColumn('reason', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['reports', 'votes', 'reactions', 'upstream_errors', 'turn_sides', 'turns', 'duels']) {
    await db.schema.dropTable(table).execute();
  }
}
