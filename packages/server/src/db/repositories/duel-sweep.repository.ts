import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';
import { AnnotationRepository } from './annotation.repository';
import { FeedbackRepository } from './feedback.repository';
import { type CutTurnRule, TurnLeaseRepository, wasCut } from './turn-lease.repository';

/** Rows of one table per transaction of the retention purge. */
const PURGE_PAGE = 5_000;

/** Rows of the retention purge with `created_at` after `after` (when set) and `end` `at`. */
interface PurgeRange {
  after: string | undefined;
  end: '<' | '<=';
  at: string;
}

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
   * cookie matches it) and votes lose the hash of their client address. A range of `created_at`
   * holding a page of rows per transaction, with a turn of the event loop between ranges: the first
   * purge of a large store (retention switched on after months, a restored backup) touches millions
   * of rows, and one transaction held the server's only SQLite connection, and its event loop, for
   * as long (2 s at 250,000 votes). Each range that changed rows moves the ranking epoch in the same
   * transaction, so that no kept columns or snapshot keep a purged hash after a kill.
   */
  async purgeVisitorTraces(before: string): Promise<{ duels: number; votes: number }> {
    const duels = await this.purgeInRanges('duels', before, (db, range) =>
      db
        .updateTable('duels')
        .set({ visitor_hash: sql<string>`${'purged:'} || id` })
        .where('created_at', range.end, range.at)
        .$if(range.after !== undefined, (query) => query.where('created_at', '>', range.after!))
        // As an expression, not the column: SQLite would walk the (source, external_id) index, every arena duel per range.
        .where(sql<string>`source || ''`, '=', 'arena')
        .where('visitor_hash', 'not like', 'purged:%')
        .executeTakeFirst(),
    );
    const votes = await this.purgeInRanges('votes', before, (db, range) =>
      db
        .updateTable('votes')
        .set({ client_hash: null })
        .where('created_at', range.end, range.at)
        .$if(range.after !== undefined, (query) => query.where('created_at', '>', range.after!))
        .where('client_hash', 'is not', null)
        .executeTakeFirst(),
    );
    return { duels, votes };
  }

  private async purgeInRanges(
    table: 'duels' | 'votes',
    before: string,
    purge: (db: Kysely<Database>, range: PurgeRange) => Promise<{ numUpdatedRows: bigint }>,
  ): Promise<number> {
    let purged = 0;
    let after: string | undefined;
    for (;;) {
      // The page's last created_at: the range takes every row up to it (ties included), or the rest when less than a page remains.
      const upTo = await this.pageEnd(table, before, after);
      const range: PurgeRange = upTo === undefined ? { after, end: '<', at: before } : { after, end: '<=', at: upTo };
      purged += await this.db.transaction().execute(async (db) => {
        const changed = Number((await purge(db, range)).numUpdatedRows);
        // The integrity rules group votes by these hashes: the live leaderboard reads every vote again.
        if (changed > 0) await new FeedbackRepository(db).bumpRankingEpoch();
        return changed;
      });
      if (upTo === undefined) return purged;
      after = upTo;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** The `created_at` of the page's last row after `after` (read from the index alone), or undefined when less than a page is left. */
  private async pageEnd(table: 'duels' | 'votes', before: string, after: string | undefined): Promise<string | undefined> {
    const { rows } = await sql<{ createdAt: string }>`
      select created_at as "createdAt" from ${sql.table(table)}
      where created_at < ${before} ${after === undefined ? sql`` : sql`and created_at > ${after}`}
      order by created_at limit 1 offset ${this.purgePage - 1}`.execute(this.db);
    return rows[0]?.createdAt;
  }
}
