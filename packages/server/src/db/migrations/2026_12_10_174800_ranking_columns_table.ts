import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The live leaderboard's kept vote columns on PostgreSQL (an SQLite store keeps them in a file
  // beside it): the snapshot's encoded bytes in parts of a few MB (one value of hundreds of MB would
  // be read back as twice as many hex characters), and what its header says, for operators.
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('ranking_columns_parts')
    .addColumn('part', 'integer', (column) => column.primaryKey())
    .addColumn('bytes', postgres ? 'bytea' : 'blob', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('ranking_columns_snapshot')
    .addColumn('id', 'integer', (column) => column.primaryKey())
    .addColumn('version', 'integer', (column) => column.notNull())
    .addColumn('epoch', 'integer', (column) => column.notNull())
    .addColumn('read_from', 'text', (column) => column.notNull())
    .addColumn('loaded_at', 'text', (column) => column.notNull())
    .addColumn('votes', 'integer', (column) => column.notNull())
    .addColumn('bytes', 'integer', (column) => column.notNull())
    .addColumn('parts', 'integer', (column) => column.notNull())
    .addColumn('written_at', 'text', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ranking_columns_snapshot').execute();
  await db.schema.dropTable('ranking_columns_parts').execute();
}
