import { duelStatusAfterTurn } from '../../domain/arena/duel-rules';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';
import { AnnotationRepository } from './annotation.repository';
import { FeedbackRepository } from './feedback.repository';

/** The store's sweeps over duels: turns a dead process left streaming, and the retention of visitor traces. */
export class DuelSweepRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Turns still `streaming` that started before `startedBefore`: no process can still be streaming
   * them (it would have timed out), so the process that was died. Each is marked failed
   * (`interrupted`), and its duel with it when it was the first turn (an interrupted follow-up leaves
   * the duel votable on its earlier turns: `duelStatusAfterTurn`); failed duels go to
   * post-processing. One transaction.
   */
  async failInterruptedTurns(startedBefore: string, endedAt: string): Promise<string[]> {
    return this.db.transaction().execute(async (db) => {
      const stale = await db
        .selectFrom('turns')
        .select(['duel_id', 'turn'])
        .where('status', '=', 'streaming')
        .where('started_at', '<', startedBefore)
        .execute();
      const failedDuels: string[] = [];
      for (const { duel_id: duelId, turn } of stale) {
        await db
          .updateTable('turns')
          .set({ status: 'failed', error_code: 'interrupted', ended_at: endedAt })
          .where('duel_id', '=', duelId)
          .where('turn', '=', turn)
          .where('status', '=', 'streaming')
          .execute();
        const status = duelStatusAfterTurn(turn, 'failed');
        await db
          .updateTable('duels')
          .set({ status, updated_at: endedAt })
          .where('id', '=', duelId)
          .where('status', '=', 'streaming')
          .execute();
        if (status === 'failed') failedDuels.push(duelId);
      }
      await new AnnotationRepository(db).enqueue([...new Set(failedDuels)], endedAt);
      return [...new Set(stale.map((row) => row.duel_id))];
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
