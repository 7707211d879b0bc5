import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The operator's console (docs/operations.md#the-console): staff accounts and their roles.
  await db.schema
    .createTable('staff')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('email', 'text', (column) => column.notNull().unique())
    .addColumn('role', 'text', (column) => column.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('activated_at', 'text')
    .addColumn('disabled_at', 'text')
    .execute();
  await db.schema
    .createTable('staff_links')
    .addColumn('token_hash', 'text', (column) => column.primaryKey())
    .addColumn('staff_id', 'text', (column) => column.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createTable('staff_sessions')
    .addColumn('token_hash', 'text', (column) => column.primaryKey())
    .addColumn('staff_id', 'text', (column) => column.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('absolute_expires_at', 'text', (column) => column.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('address_hash', 'text')
    .execute();
  await db.schema.createIndex('staff_sessions_staff').on('staff_sessions').column('staff_id').execute();
  // Append-only: the application never updates a row; the retention rule deletes old ones.
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('at', 'text', (column) => column.notNull())
    .addColumn('actor_kind', 'text', (column) => column.notNull())
    .addColumn('actor', 'text', (column) => column.notNull())
    .addColumn('method', 'text', (column) => column.notNull())
    .addColumn('route', 'text', (column) => column.notNull())
    .addColumn('target', 'text')
    .addColumn('rows', 'integer')
    .addColumn('status', 'integer', (column) => column.notNull())
    .addColumn('address_hash', 'text')
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropTable('staff_sessions').execute();
  await db.schema.dropTable('staff_links').execute();
  await db.schema.dropTable('staff').execute();
}
