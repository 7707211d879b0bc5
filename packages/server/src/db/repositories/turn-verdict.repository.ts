import type { Kysely } from 'kysely';
import type { Database } from '../database';
import type { RankingTurnVerdict } from '../../domain/ranking/turn-verdict-votes';

/** A verdict on one turn, as the store keeps it (`a` and `b`: that side's answer was better). */
export type StoredTurnChoice = 'a' | 'b' | 'both_good' | 'both_bad';

export interface TurnVerdictRecord {
  duelId: string;
  turn: number;
  choice: StoredTurnChoice;
  /** Hash of the client address group (arena verdicts), null for imported ones. */
  clientHash: string | null;
  /** When it was first given, and last changed (equal when never changed). */
  createdAt: string;
  updatedAt: string;
}

/** The arena visitors' verdicts on single turns (compar:IA's imported ones go through the import's repository). */
export class TurnVerdictRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Gives or changes the verdict on one turn: one per (duel, turn); a change keeps when it was first given. */
  async upsert(verdict: TurnVerdictRecord): Promise<void> {
    const changed = { choice: verdict.choice, updated_at: verdict.updatedAt, client_hash: verdict.clientHash };
    await this.db
      .insertInto('turn_verdicts')
      .values({ duel_id: verdict.duelId, turn: verdict.turn, source_id: null, created_at: verdict.createdAt, ...changed })
      .onConflict((conflict) => conflict.columns(['duel_id', 'turn']).doUpdateSet(changed))
      .execute();
  }

  /** A duel's verdicts, by turn. */
  async list(duelId: string): Promise<TurnVerdictRecord[]> {
    const rows = await this.db.selectFrom('turn_verdicts').selectAll().where('duel_id', '=', duelId).orderBy('turn').execute();
    return rows.map((row) => ({
      duelId: row.duel_id,
      turn: row.turn,
      choice: row.choice as StoredTurnChoice,
      clientHash: row.client_hash,
      createdAt: row.created_at,
      updatedAt: row.updated_at ?? row.created_at,
    }));
  }

  /**
   * Every stored verdict with its duel's models, for `agora leaderboard --unit turn`: the arena's and
   * compar:IA's imported ones, but not those of a duel whose vote was flagged as an identity leak (a
   * side said who it was: its verdicts are not blind either). Ordered by duel, then turn.
   */
  async listRankingVerdicts(): Promise<RankingTurnVerdict[]> {
    const rows = await this.db
      .selectFrom('turn_verdicts as v')
      .innerJoin('duels as d', 'd.id', 'v.duel_id')
      .leftJoin('votes as vote', 'vote.duel_id', 'v.duel_id')
      .select(['v.duel_id', 'v.turn', 'v.choice', 'd.model_a', 'd.model_b'])
      .where((eb) => eb.or([eb('vote.identity_leak', 'is', null), eb('vote.identity_leak', '=', 0)]))
      .orderBy('v.duel_id')
      .orderBy('v.turn')
      .execute();
    return rows.map((row) => ({
      duelId: row.duel_id,
      turn: row.turn,
      choice: row.choice as RankingTurnVerdict['choice'],
      modelA: row.model_a,
      modelB: row.model_b,
    }));
  }
}
