import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // A conversation's near-duplicate cluster (docs/ranking.md#duplicate-prompts): the duel id of the
  // conversation whose first prompt founded it; null until post-processing assigned it.
  await db.schema.alterTable('conversation_annotations').addColumn('prompt_cluster', 'text').execute();
  // Each cluster's founding MinHash signature, and its 32 band keys: a new prompt is matched against
  // the clusters sharing one of its band keys (an index lookup), never against every prompt.
  await db.schema
    .createTable('prompt_clusters')
    .addColumn('cluster', 'text', (column) => column.primaryKey())
    .addColumn('signature', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('prompt_cluster_bands')
    .addColumn('band', 'text', (column) => column.notNull())
    .addColumn('cluster', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('prompt_cluster_bands_pk', ['band', 'cluster'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('prompt_cluster_bands').execute();
  await db.schema.dropTable('prompt_clusters').execute();
  await db.schema.alterTable('conversation_annotations').dropColumn('prompt_cluster').execute();
}
