import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';
import { AnnotationRepository } from './annotation.repository';
import { FeedbackRepository } from './feedback.repository';
import { type CutTurnRule, TurnLeaseRepository, wasCut } from './turn-lease.repository';

/** The store's sweeps over duels: turns a dead process left streaming, and the retention of visitor traces. */
export class DuelSweepRepository {
  constructor(private readonly db: Kysely<Database>) {}

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
   * cookie matches it) and votes lose the hash of their client address. One transaction.
   */
  async purgeVisitorTraces(before: string): Promise<{ duels: number; votes: number }> {
    return this.db.transaction().execute(async (db) => {
      const duels = await db
        .updateTable('duels')
        .set({ visitor_hash: sql<string>`${'purged:'} || id` })
        .where('created_at', '<', before)
        .where('source', '=', 'arena')
        .where('visitor_hash', 'not like', 'purged:%')
        .executeTakeFirst();
      const votes = await db
        .updateTable('votes')
        .set({ client_hash: null })
        .where('created_at', '<', before)
        .where('client_hash', 'is not', null)
        .executeTakeFirst();
      // The integrity rules group votes by these hashes: the live leaderboard reads every vote again.
      if (Number(duels.numUpdatedRows) + Number(votes.numUpdatedRows) > 0) await new FeedbackRepository(db).bumpRankingEpoch();
      return { duels: Number(duels.numUpdatedRows), votes: Number(votes.numUpdatedRows) };
    });
  }
}
