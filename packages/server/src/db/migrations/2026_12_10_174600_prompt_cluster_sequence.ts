import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Post-processing keeps the clusters' band keys in memory (services/prompt-cluster-index.ts):
  // the 32 index rows a founded cluster cost (about 1 ms a cluster) go, and each cluster gets a
  // sequence number by which an instance picks up the clusters the others founded since it last looked.
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('prompt_clusters_next')
    .addColumn('seq', postgres ? 'serial' : 'integer', (column) => column.primaryKey())
    .addColumn('cluster', 'text', (column) => column.notNull().unique())
    .addColumn('signature', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await sql`INSERT INTO prompt_clusters_next (cluster, signature, created_at)
    SELECT cluster, signature, created_at FROM prompt_clusters ORDER BY created_at, cluster`.execute(db);
  await db.schema.dropTable('prompt_cluster_bands').execute();
  await db.schema.dropTable('prompt_clusters').execute();
  await db.schema.alterTable('prompt_clusters_next').renameTo('prompt_clusters').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The band rows are not rebuilt (their keys are computed, not stored): clusters founded before
  // stay stored but are no longer found by later prompts of the older code.
  await db.schema
    .createTable('prompt_clusters_previous')
    .addColumn('cluster', 'text', (column) => column.primaryKey())
    .addColumn('signature', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await sql`INSERT INTO prompt_clusters_previous (cluster, signature, created_at)
    SELECT cluster, signature, created_at FROM prompt_clusters`.execute(db);
  await db.schema.dropTable('prompt_clusters').execute();
  await db.schema.alterTable('prompt_clusters_previous').renameTo('prompt_clusters').execute();
  await db.schema
    .createTable('prompt_cluster_bands')
    .addColumn('band', 'text', (column) => column.notNull())
    .addColumn('cluster', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('prompt_cluster_bands_pk', ['band', 'cluster'])
    .execute();
}
