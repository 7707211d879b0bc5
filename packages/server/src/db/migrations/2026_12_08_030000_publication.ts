import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The console's publication (docs/operations.md#publication): exports and pushes run from the console
  // or the schedule, their progress (polled from any instance) and outcome.
  await db.schema
    .createTable('publication_runs')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('actor', 'text', (column) => column.notNull())
    .addColumn('started_at', 'text', (column) => column.notNull())
    .addColumn('heartbeat_at', 'text', (column) => column.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('done', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('total', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('build_id', 'text')
    .addColumn('pushes_json', 'text', (column) => column.notNull().defaultTo('[]'))
    .addColumn('failure', 'text')
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('publication_runs_started').on('publication_runs').column('started_at').execute();
  // The Hub settings given in the console (repositories, token, schedule): they win over the environment's.
  await db.schema
    .createTable('publication_settings')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('value', 'text', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('publication_settings').execute();
  await db.schema.dropTable('publication_runs').execute();
}
