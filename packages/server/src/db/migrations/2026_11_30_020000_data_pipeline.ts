import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Where a duel comes from: `arena` (played here) or an imported public dataset (`comparia`),
  // with the source's own id so that an import can be run again without duplicating anything.
  await db.schema
    .alterTable('duels')
    .addColumn('source', 'text', (column) => column.notNull().defaultTo('arena'))
    .execute();
  await db.schema.alterTable('duels').addColumn('external_id', 'text').execute();
  // Cohort label (e.g. a school campaign); an operator can mark cohorts private to keep them out of exports.
  await db.schema.alterTable('duels').addColumn('cohort', 'text').execute();
  await db.schema.createIndex('duels_source_external_id').on('duels').columns(['source', 'external_id']).unique().execute();
  // Columns of an imported row that Agora does not model (JSON), kept verbatim so that an export
  // gives back what was imported.
  for (const table of ['duels', 'turn_sides', 'votes', 'reactions']) {
    await db.schema.alterTable(table).addColumn('source_meta', 'text').execute();
  }

  // Post-processing of one conversation: language, topics and personal-data screening.
  // A conversation is exportable only when `status` is `done`, no layer found personal data and
  // no reviewer excluded it.
  await db.schema
    .createTable('conversation_annotations')
    .addColumn('duel_id', 'text', (column) => column.primaryKey().references('duels.id').onDelete('cascade'))
    // pending | done | failed (retries exhausted; never exported)
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'text')
    // How many complete turns were annotated: a conversation that grew since is annotated again.
    .addColumn('turns_annotated', 'integer', (column) => column.notNull().defaultTo(0))
    // Conversation languages, most frequent first (JSON list of codes), and per message (JSON).
    .addColumn('languages', 'text')
    .addColumn('message_languages', 'text')
    // Personal data: kinds found by the deterministic detectors and by the model (JSON lists).
    .addColumn('pii_rule_kinds', 'text')
    .addColumn('pii_model_kinds', 'text')
    .addColumn('contains_pii', 'integer')
    // Model layer (topics + personal data): pending | done | not_configured | failed.
    .addColumn('model_status', 'text', (column) => column.notNull().defaultTo('pending'))
    .addColumn('model_id', 'text')
    .addColumn('categories', 'text')
    .addColumn('keywords', 'text')
    .addColumn('short_summary', 'text')
    .addColumn('annotated_at', 'text')
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('conversation_annotations_status')
    .on('conversation_annotations')
    .columns(['status', 'next_attempt_at'])
    .execute();

  // A reviewer's decision on a flagged or reported conversation; it overrides the screening.
  await db.schema
    .createTable('review_decisions')
    .addColumn('duel_id', 'text', (column) => column.primaryKey().references('duels.id').onDelete('cascade'))
    // include | exclude
    .addColumn('decision', 'text', (column) => column.notNull())
    .addColumn('reason', 'text')
    .addColumn('reviewer', 'text', (column) => column.notNull())
    .addColumn('decided_at', 'text', (column) => column.notNull())
    .execute();
  // Append-only: every decision ever taken, with the one it replaced.
  await db.schema
    .createTable('review_audit_log')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('duel_id', 'text', (column) => column.notNull())
    .addColumn('decision', 'text', (column) => column.notNull())
    .addColumn('previous_decision', 'text')
    .addColumn('reason', 'text')
    .addColumn('reviewer', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('review_audit_log_duel').on('review_audit_log').columns(['duel_id', 'created_at']).execute();

  // Deployment-wide values the store keeps, e.g. the secret salt of exported visitor ids.
  await db.schema
    .createTable('deployment_settings')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('value', 'text', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['deployment_settings', 'review_audit_log', 'review_decisions', 'conversation_annotations']) {
    await db.schema.dropTable(table).execute();
  }
  for (const table of ['duels', 'turn_sides', 'votes', 'reactions']) {
    await db.schema.alterTable(table).dropColumn('source_meta').execute();
  }
  await db.schema.dropIndex('duels_source_external_id').execute();
  for (const column of ['cohort', 'external_id', 'source']) {
    await db.schema.alterTable('duels').dropColumn(column).execute();
  }
}
