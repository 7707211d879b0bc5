import type { ExpressionBuilder, Kysely } from 'kysely';
import { duelStatusAfterTurn } from '../../domain/arena/duel-rules';
import type { Database } from '../database';
import { AnnotationRepository } from './annotation.repository';

/** Why a turn still `streaming` may be ended as interrupted: its lease lapsed, or it started too long ago. */
export interface CutTurnRule {
  /** Its lease ran out before this time: the process running it stopped renewing it. */
  leaseLapsedBefore: string;
  /** It started before this time (for turns without a lease): no process can still be streaming it. */
  startedBefore?: string;
}

/**
 * The leases of running turns (docs/decisions/0005-several-instances.md): the process that runs a
 * turn renews its `lease_until` while it streams; once the lease has run out, any instance ends the
 * turn as interrupted. Every write is conditional on the turn still streaming, so that of two
 * instances (or of the owner and another) exactly one acts, and the first to act wins.
 */
export class TurnLeaseRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Extends the leases of the turns still streaming among `turns`, in one statement (a process
   * renews all its running turns at once: one write every few seconds instead of one per turn);
   * returns those renewed, as `duelId:turn`. A turn missing from the answer no longer streams
   * (stored, or ended by another instance).
   */
  async renew(turns: readonly { duelId: string; turn: number }[], leaseUntil: string): Promise<Set<string>> {
    const renewed = new Set<string>();
    // In slices, so that the statement's parameters stay within every driver's limit.
    for (let start = 0; start < turns.length; start += 400) {
      const slice = turns.slice(start, start + 400);
      const rows = await this.db
        .updateTable('turns')
        .set({ lease_until: leaseUntil })
        .where((eb) =>
          eb(
            eb.refTuple('duel_id', 'turn'),
            'in',
            slice.map(({ duelId, turn }) => eb.tuple(duelId, turn)),
          ),
        )
        .where('status', '=', 'streaming')
        .returning(['duel_id', 'turn'])
        .execute();
      for (const row of rows) renewed.add(`${row.duel_id}:${row.turn}`);
    }
    return renewed;
  }

  /** A turn's status and lease, in one read (a follower polls it). */
  async find(duelId: string, turn: number): Promise<{ status: string; leaseUntil: string | null } | undefined> {
    const row = await this.db
      .selectFrom('turns')
      .select(['status', 'lease_until'])
      .where('duel_id', '=', duelId)
      .where('turn', '=', turn)
      .executeTakeFirst();
    return row ? { status: row.status, leaseUntil: row.lease_until } : undefined;
  }

  /**
   * Ends one turn as interrupted when its lease lapsed before `now`: the turn `failed`
   * (`interrupted`), its duel as {@link duelStatusAfterTurn} says, a failed duel queued for
   * post-processing, the turn's live frames dropped. One transaction; false when the turn was not
   * cut (its lease holds, or it no longer streams: stored, or ended by another instance first).
   */
  async failLapsed(duelId: string, turn: number, now: string): Promise<boolean> {
    if (!this.db.isTransaction) return this.db.transaction().execute((db) => new TurnLeaseRepository(db).failLapsed(duelId, turn, now));
    const failedDuel = await this.failIfCut({ duelId, turn }, { leaseLapsedBefore: now }, now);
    if (failedDuel === undefined) return false;
    if (failedDuel) await new AnnotationRepository(this.db).enqueue([duelId], now);
    return true;
  }

  /**
   * Ends the turn as interrupted if it still streams and `rule` says it was cut; call it inside a
   * transaction. Returns undefined when it did not, else whether its duel failed with it.
   */
  async failIfCut({ duelId, turn }: { duelId: string; turn: number }, rule: CutTurnRule, endedAt: string): Promise<boolean | undefined> {
    const failed = await this.db
      .updateTable('turns')
      .set({ status: 'failed', error_code: 'interrupted', ended_at: endedAt, lease_until: null })
      .where('duel_id', '=', duelId)
      .where('turn', '=', turn)
      .where('status', '=', 'streaming')
      .where((eb) => wasCut(eb, rule))
      .executeTakeFirst();
    if (Number(failed.numUpdatedRows) !== 1) return undefined;
    const status = duelStatusAfterTurn(turn, 'failed');
    await this.db
      .updateTable('duels')
      .set({ status, updated_at: endedAt })
      .where('id', '=', duelId)
      .where('status', '=', 'streaming')
      .execute();
    // Its owner never dropped them: it stopped.
    await this.db.deleteFrom('live_frames').where('duel_id', '=', duelId).where('turn', '=', turn).execute();
    return status === 'failed';
  }
}

/** The rule as a condition on a `turns` row (a null lease never lapses: such turns have only their start time). */
export function wasCut(eb: ExpressionBuilder<Database, 'turns'>, rule: CutTurnRule) {
  const lapsed = eb('lease_until', '<', rule.leaseLapsedBefore);
  return rule.startedBefore === undefined ? lapsed : eb.or([lapsed, eb('started_at', '<', rule.startedBefore)]);
}
