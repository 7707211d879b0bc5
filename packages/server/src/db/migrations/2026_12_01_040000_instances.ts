import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The optimised set's item claims become the store's leases, which several instances also take
  // for their singleton jobs (post-processing, leaderboard refresh): one table, one claim rule.
  await db.schema.alterTable('maxx_claims').renameTo('leases').execute();
  await db.schema.alterTable('leases').renameColumn('item_key', 'lease_key').execute();
  // The frames of turns still streaming, appended by the instance that runs the turn, so that a
  // stream request reaching another instance follows it (several instances only; deleted when the
  // turn is stored with its frames).
  await db.schema
    .createTable('live_frames')
    .addColumn('duel_id', 'text', (column) => column.notNull())
    .addColumn('turn', 'integer', (column) => column.notNull())
    .addColumn('frame_id', 'integer', (column) => column.notNull())
    .addColumn('event_json', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('live_frames_pk', ['duel_id', 'turn', 'frame_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('live_frames').execute();
  await db.schema.alterTable('leases').renameColumn('lease_key', 'item_key').execute();
  await db.schema.alterTable('leases').renameTo('maxx_claims').execute();
}
