import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from '../database';
import type { RankingColumnsSnapshotTable } from '../tables/ranking-columns';

/** What the stored snapshot's header says (the encoded bytes say it too, and are what a start checks). */
export type RankingColumnsHead = Omit<RankingColumnsSnapshotTable, 'id'>;

/** Any number that fits in PostgreSQL's bigint: the lock of the kept columns' writers ("AGKVC" in ASCII). */
const WRITERS_LOCK = 0x41474b5643;

/**
 * The live leaderboard's kept vote columns as rows (PostgreSQL; services/leaderboard-columns-table.ts):
 * the encoded snapshot in parts, replaced whole in one transaction, read back in one statement.
 */
export class RankingColumnsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Replaces the stored snapshot by `parts` unless the stored one read the votes later at the same
   * epoch (another instance's, newer); says whether it wrote. Call it inside a transaction: the
   * writers' lock is held until it ends, and a writer that dies leaves the old rows as they were.
   */
  async replace(head: Omit<RankingColumnsHead, 'parts'>, parts: Iterable<Buffer>): Promise<boolean> {
    if (this.db.getExecutor().adapter instanceof PostgresAdapter) await sql`SELECT pg_advisory_xact_lock(${WRITERS_LOCK})`.execute(this.db);
    const stored = await this.db
      .selectFrom('ranking_columns_snapshot')
      .select(['epoch', 'read_from'])
      .where('id', '=', 1)
      .executeTakeFirst();
    if (stored && stored.epoch === head.epoch && stored.read_from > head.read_from) return false;
    await this.db.deleteFrom('ranking_columns_parts').execute();
    let part = 0;
    // One part per statement: a statement of hundreds of MB would hold them all in memory at once.
    for (const bytes of parts) await this.db.insertInto('ranking_columns_parts').values({ part: part++, bytes }).execute();
    const values = { ...head, parts: part };
    await this.db
      .insertInto('ranking_columns_snapshot')
      .values({ id: 1, ...values })
      .onConflict((conflict) => conflict.column('id').doUpdateSet(values))
      .execute();
    return true;
  }

  /** Every part in order, in one statement (one view of the table, whatever a writer commits meanwhile). */
  async parts(): Promise<Buffer[]> {
    const rows = await this.db.selectFrom('ranking_columns_parts').select('bytes').orderBy('part').execute();
    return rows.map((row) => row.bytes);
  }

  /** The stored snapshot's header row, if any. */
  async head(): Promise<RankingColumnsHead | undefined> {
    return this.db.selectFrom('ranking_columns_snapshot').selectAll().where('id', '=', 1).executeTakeFirst();
  }

  /** Deletes the stored snapshot (always safe: the next start reads every vote). */
  async clear(): Promise<void> {
    await this.db.deleteFrom('ranking_columns_parts').execute();
    await this.db.deleteFrom('ranking_columns_snapshot').execute();
  }
}
