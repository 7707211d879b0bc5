import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';
import { AnnotationRepository } from './annotation.repository';
import { FeedbackRepository } from './feedback.repository';
import { type CutTurnRule, TurnLeaseRepository, wasCut } from './turn-lease.repository';

/** Rows of one table per transaction of the retention purge. */
const PURGE_PAGE = 5_000;

/** The store's sweeps over duels: turns a dead process left streaming, and the retention of visitor traces. */
export class DuelSweepRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** Rows per transaction of the retention purge (smaller in tests). */
    private readonly purgePage = PURGE_PAGE,
  ) {}

  /**
   * Turns still `streaming` that were cut: their lease lapsed before `rule.leaseLapsedBefore` (the
   * process running them stopped renewing it), or, for turns without a lease (from before leases),
   * they started before `rule.startedBefore`, when no process can still be streaming them (it would
   * have timed out). Each is marked failed (`interrupted`), and its duel with it when it was the
   * first turn (an interrupted follow-up leaves the duel votable on its earlier turns:
   * `duelStatusAfterTurn`); failed duels go to post-processing. One transaction; the update is
   * conditional on the same rule, so that a turn whose owner renewed its lease meanwhile is left alone.
   */
  async failInterruptedTurns(rule: Required<CutTurnRule>, endedAt: string): Promise<string[]> {
    return this.db.transaction().execute(async (db) => {
      const stale = await db
        .selectFrom('turns')
        .select(['duel_id', 'turn'])
        .where('status', '=', 'streaming')
        .where((eb) => wasCut(eb, rule))
        .execute();
      const leases = new TurnLeaseRepository(db);
      const ended: string[] = [];
      const failedDuels: string[] = [];
      for (const { duel_id: duelId, turn } of stale) {
        const duelFailed = await leases.failIfCut({ duelId, turn }, rule, endedAt);
        if (duelFailed === undefined) continue;
        ended.push(duelId);
        if (duelFailed) failedDuels.push(duelId);
      }
      await new AnnotationRepository(db).enqueue([...new Set(failedDuels)], endedAt);
      return [...new Set(ended)];
    });
  }

  /**
   * Forgets who played the arena's duels started before `before`: the visitor hash becomes
   * `purged:<duel id>` (unique, so that no two purged conversations look like one visitor's, and no
   * cookie matches it) and votes lose the hash of their client address. A page of rows per
   * transaction, walked along the `created_at` index, with a turn of the event loop between pages:
   * the first purge of a large store (retention switched on, a restored backup) touches millions of
   * rows, and one transaction held the server's only SQLite connection, and its event loop, for
   * minutes (2.5M votes: /healthz after 130 s). Each page that changed rows moves the ranking epoch
   * in its own transaction, so that no kept columns or snapshot keep a purged hash after a kill.
   */
  async purgeVisitorTraces(before: string): Promise<{ duels: number; votes: number }> {
    const duels = await this.purgeInPages('duels', 'id', before, (db, ids) =>
      db
        .updateTable('duels')
        .set({ visitor_hash: sql<string>`${'purged:'} || id` })
        .where('id', 'in', ids)
        .where('source', '=', 'arena')
        .where('visitor_hash', 'not like', 'purged:%')
        .executeTakeFirst(),
    );
    const votes = await this.purgeInPages('votes', 'duel_id', before, (db, ids) =>
      db
        .updateTable('votes')
        .set({ client_hash: null })
        .where('duel_id', 'in', ids)
        .where('client_hash', 'is not', null)
        .executeTakeFirst(),
    );
    return { duels, votes };
  }

  private async purgeInPages(
    table: 'duels' | 'votes',
    key: 'id' | 'duel_id',
    before: string,
    purge: (db: Kysely<Database>, ids: string[]) => Promise<{ numUpdatedRows: bigint }>,
  ): Promise<number> {
    let purged = 0;
    let after: { createdAt: string; id: string } | undefined;
    for (;;) {
      const page = await this.oldRows(table, key, before, after);
      if (page.length === 0) return purged;
      const ids = page.map((row) => row.id);
      purged += await this.db.transaction().execute(async (db) => {
        const changed = Number((await purge(db, ids)).numUpdatedRows);
        // The integrity rules group votes by these hashes: the live leaderboard reads every vote again.
        if (changed > 0) await new FeedbackRepository(db).bumpRankingEpoch();
        return changed;
      });
      after = page.at(-1);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** The next page of rows created before `before`, in (created_at, key) order after `after`. */
  private async oldRows(
    table: 'duels' | 'votes',
    key: 'id' | 'duel_id',
    before: string,
    after?: { createdAt: string; id: string },
  ): Promise<{ createdAt: string; id: string }[]> {
    const keyColumn = sql.ref(key);
    const afterCursor =
      after === undefined
        ? sql``
        : sql`and (created_at > ${after.createdAt} or (created_at = ${after.createdAt} and ${keyColumn} > ${after.id}))`;
    const { rows } = await sql<{ createdAt: string; id: string }>`
      select created_at as "createdAt", ${keyColumn} as id from ${sql.table(table)}
      where created_at < ${before} ${afterCursor}
      order by created_at, ${keyColumn} limit ${this.purgePage}`.execute(this.db);
    return rows;
  }
}
