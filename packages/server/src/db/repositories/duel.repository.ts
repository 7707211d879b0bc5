import type { Kysely } from 'kysely';
import type { Database } from '../database';
import { PreparedQuery } from '../prepared-query';
import {
  type DuelRecord,
  type FinishedTurn,
  type StoredFrame,
  type TurnRecord,
  type TurnSideRecord,
  type TurnSideSummary,
  type UpstreamErrorRecord,
  duelColumns,
  sideRow,
  summaryColumns,
  toDuelRecord,
  toSideRecord,
  toSideSummary,
  toTurnRecord,
  upstreamErrorRow,
} from './duel-records';
import { DuelSweepRepository } from './duel-sweep.repository';
import { DuelVoteRepository } from './duel-vote.repository';
import type { VoteRecord } from './feedback.repository';
import { LiveFrameRepository } from './live-frame.repository';
import { ModelFaultRepository } from './model-fault.repository';
import { type CutTurnRule, TurnLeaseRepository } from './turn-lease.repository';
export type {
  DuelRecord,
  FinishedTurn,
  StoredFrame,
  TurnRecord,
  TurnSideRecord,
  TurnSideSummary,
  UpstreamErrorRecord,
} from './duel-records';

// Every duel starts with these two inserts: compiled once (see PreparedQuery).
const insertDuelQuery = new PreparedQuery(
  (
    db,
    values: {
      id: string;
      visitor_hash: string;
      mode: string;
      model_a: string;
      model_b: string;
      chosen_models: string | null;
      locale: string | null;
      status: string;
      turn_count: number;
      created_at: string;
      cohort: string | null;
      charges_costly_budget: number;
    },
  ) =>
    db.insertInto('duels').values({
      id: values.id,
      visitor_hash: values.visitor_hash,
      mode: values.mode,
      model_a: values.model_a,
      model_b: values.model_b,
      chosen_models: values.chosen_models,
      locale: values.locale,
      status: values.status,
      turn_count: values.turn_count,
      created_at: values.created_at,
      updated_at: values.created_at,
      cohort: values.cohort,
      charges_costly_budget: values.charges_costly_budget,
    }),
);

const insertTurnQuery = new PreparedQuery(
  (db, values: { duel_id: string; turn: number; prompt: string; status: string; started_at: string; lease_until: string | null }) =>
    db.insertInto('turns').values({
      duel_id: values.duel_id,
      turn: values.turn,
      prompt: values.prompt,
      status: values.status,
      error_code: null,
      frames: null,
      started_at: values.started_at,
      ended_at: null,
      lease_until: values.lease_until,
    }),
);

/**
 * Duels, their turns and each side's answer. What else the store keeps of a duel has rooms of its
 * own (votes, live frames, sweeps, model faults), reached through this one: services see one `duels`.
 */
export class DuelRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Inserts a new duel with its first turn, streaming, in one transaction (a duel without its turn
   * would be stuck). `leaseUntil`: the first lease of the process that runs the turn (none for turns
   * written by tools and tests).
   */
  async createWithFirstTurn(duel: DuelRecord, prompt: string, leaseUntil: string | null = null): Promise<void> {
    if (!this.db.isTransaction) {
      await this.db.transaction().execute((db) => new DuelRepository(db).createWithFirstTurn(duel, prompt, leaseUntil));
      return;
    }
    await insertDuelQuery.execute(this.db, {
      id: duel.id,
      visitor_hash: duel.visitorHash,
      mode: duel.mode,
      model_a: duel.modelA,
      model_b: duel.modelB,
      chosen_models: duel.chosenModels ? JSON.stringify(duel.chosenModels) : null,
      locale: duel.locale,
      status: duel.status,
      turn_count: duel.turnCount,
      created_at: duel.createdAt,
      cohort: duel.cohort ?? null,
      charges_costly_budget: duel.chargesCostlyBudget ? 1 : 0,
    });
    const turn: TurnRecord = { turn: 1, prompt, status: 'streaming', errorCode: null, startedAt: duel.createdAt, endedAt: null };
    await this.insertTurn(duel.id, turn, this.db, leaseUntil);
  }

  /**
   * Starts a follow-up turn if the duel is still `ready` with the expected turn count.
   * Returns false when another request changed the duel first (the caller answers 409).
   * `leaseUntil`: the first lease of the process that runs the turn.
   */
  async startFollowUpTurn(duelId: string, turn: TurnRecord, leaseUntil: string | null = null): Promise<boolean> {
    // One transaction: a duel counted as streaming a turn that was never inserted would be stuck for good.
    const write = async (db: Kysely<Database>) => {
      const updated = await db
        .updateTable('duels')
        .set({ status: 'streaming', turn_count: turn.turn, updated_at: turn.startedAt })
        .where('id', '=', duelId)
        .where('status', '=', 'ready')
        .where('turn_count', '=', turn.turn - 1)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return false;
      await this.insertTurn(duelId, turn, db, leaseUntil);
      return true;
    };
    return this.db.isTransaction ? write(this.db) : this.db.transaction().execute(write);
  }

  private async insertTurn(duelId: string, turn: TurnRecord, db: Kysely<Database>, leaseUntil: string | null): Promise<void> {
    await insertTurnQuery.execute(db, {
      duel_id: duelId,
      turn: turn.turn,
      prompt: turn.prompt,
      status: turn.status,
      started_at: turn.startedAt,
      lease_until: leaseUntil,
    });
  }

  async findById(duelId: string): Promise<DuelRecord | undefined> {
    const row = await this.db.selectFrom('duels').select(duelColumns).where('id', '=', duelId).executeTakeFirst();
    return row ? toDuelRecord(row) : undefined;
  }

  async listTurns(duelId: string): Promise<TurnRecord[]> {
    const rows = await this.db
      .selectFrom('turns')
      .select(['turn', 'prompt', 'status', 'error_code', 'started_at', 'ended_at'])
      .where('duel_id', '=', duelId)
      .orderBy('turn')
      .execute();
    return rows.map(toTurnRecord);
  }

  async findTurnStatus(duelId: string, turn: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('turns')
      .select('status')
      .where('duel_id', '=', duelId)
      .where('turn', '=', turn)
      .executeTakeFirst();
    return row?.status;
  }

  /**
   * The frames a finished turn streamed, for clients that reconnect after the in-memory copy expired:
   * null while the turn has no stored frames (it runs, or a crash cut it), undefined for no such turn.
   */
  async findTurnFrames(duelId: string, turn: number): Promise<StoredFrame[] | null | undefined> {
    const row = await this.db
      .selectFrom('turns')
      .select('frames')
      .where('duel_id', '=', duelId)
      .where('turn', '=', turn)
      .executeTakeFirst();
    if (!row) return undefined;
    return row.frames === null ? null : (JSON.parse(row.frames) as StoredFrame[]);
  }

  async listSides(duelId: string): Promise<TurnSideRecord[]> {
    const rows = await this.db.selectFrom('turn_sides').selectAll().where('duel_id', '=', duelId).orderBy('turn').orderBy('side').execute();
    return rows.map(toSideRecord);
  }

  /** The turns and answers of several duels in two queries (post-processing reads a page of them at once). */
  async listConversations(duelIds: readonly string[]): Promise<Map<string, { turns: TurnRecord[]; sides: TurnSideRecord[] }>> {
    const conversations = new Map(duelIds.map((duelId) => [duelId, { turns: [] as TurnRecord[], sides: [] as TurnSideRecord[] }]));
    if (duelIds.length === 0) return conversations;
    const [turns, sides] = await Promise.all([
      this.db
        .selectFrom('turns')
        .select(['duel_id', 'turn', 'prompt', 'status', 'error_code', 'started_at', 'ended_at'])
        .where('duel_id', 'in', duelIds)
        .orderBy('duel_id')
        .orderBy('turn')
        .execute(),
      this.db
        .selectFrom('turn_sides')
        .selectAll()
        .where('duel_id', 'in', duelIds)
        .orderBy('duel_id')
        .orderBy('turn')
        .orderBy('side')
        .execute(),
    ]);
    for (const row of turns) conversations.get(row.duel_id)!.turns.push(toTurnRecord(row));
    for (const row of sides) conversations.get(row.duel_id)!.sides.push(toSideRecord(row));
    return conversations;
  }

  /** Like {@link listSides} without the texts, which can be long and are not needed to vote or react. */
  async listSideSummaries(duelId: string): Promise<TurnSideSummary[]> {
    const rows = await this.db
      .selectFrom('turn_sides')
      .select(summaryColumns)
      .where('duel_id', '=', duelId)
      .orderBy('turn')
      .orderBy('side')
      .execute();
    return rows.map(toSideSummary);
  }

  /**
   * Stores a finished turn: the turn row, both sides, the upstream errors and the duel's new status.
   * Only a turn still streaming is stored: false, and nothing written, when another instance ended it
   * as interrupted first (its lease had lapsed): that ending stands (TurnLeaseRepository).
   */
  async finishTurn(finished: FinishedTurn): Promise<boolean> {
    const turn = await this.db
      .updateTable('turns')
      .set({
        status: finished.status,
        error_code: finished.errorCode,
        frames: finished.framesJson,
        ended_at: finished.endedAt,
        lease_until: null,
      })
      .where('duel_id', '=', finished.duelId)
      .where('turn', '=', finished.turn)
      .where('status', '=', 'streaming')
      .executeTakeFirst();
    if (Number(turn.numUpdatedRows) !== 1) return false;
    await this.db
      .insertInto('turn_sides')
      .values(finished.sides.map((side) => sideRow(finished.duelId, side)))
      .execute();
    if (finished.errors.length > 0) {
      await this.db
        .insertInto('upstream_errors')
        .values(finished.errors.map((error) => upstreamErrorRow(finished.duelId, error)))
        .execute();
    }
    await this.db
      .updateTable('duels')
      .set({
        status: finished.duelStatus,
        updated_at: finished.endedAt,
        ...(finished.models ? { model_a: finished.models.a, model_b: finished.models.b } : {}),
      })
      .where('id', '=', finished.duelId)
      .execute();
    return true;
  }

  // The rooms of their own, one line each: their doc comments are where the code is.

  findVoteContext(duelId: string): Promise<{ duel: DuelRecord; sides: TurnSideSummary[] } | undefined> {
    return new DuelVoteRepository(this.db).findVoteContext(duelId);
  }

  markVoted(duelId: string, at: string): Promise<boolean> {
    return new DuelVoteRepository(this.db).markVoted(duelId, at);
  }

  closeWithVote(vote: VoteRecord): Promise<boolean> {
    return new DuelVoteRepository(this.db).closeWithVote(vote);
  }

  recordVotes(votes: readonly VoteRecord[]): Promise<boolean[]> {
    return new DuelVoteRepository(this.db).recordVotes(votes);
  }

  appendLiveFrames(duelId: string, turn: number, frames: readonly StoredFrame[]): Promise<void> {
    return new LiveFrameRepository(this.db).appendLiveFrames(duelId, turn, frames);
  }

  liveFramesAfter(duelId: string, turn: number, afterId: number): Promise<StoredFrame[]> {
    return new LiveFrameRepository(this.db).liveFramesAfter(duelId, turn, afterId);
  }

  dropLiveFrames(duelId: string, turn: number): Promise<void> {
    return new LiveFrameRepository(this.db).dropLiveFrames(duelId, turn);
  }

  renewTurnLeases(turns: readonly { duelId: string; turn: number }[], leaseUntil: string): Promise<Set<string>> {
    return new TurnLeaseRepository(this.db).renew(turns, leaseUntil);
  }

  findTurnLease(duelId: string, turn: number): Promise<{ status: string; leaseUntil: string | null } | undefined> {
    return new TurnLeaseRepository(this.db).find(duelId, turn);
  }

  failLapsedTurn(duelId: string, turn: number, now: string): Promise<boolean> {
    return new TurnLeaseRepository(this.db).failLapsed(duelId, turn, now);
  }

  failInterruptedTurns(rule: Required<CutTurnRule>, endedAt: string): Promise<string[]> {
    return new DuelSweepRepository(this.db).failInterruptedTurns(rule, endedAt);
  }

  purgeVisitorTraces(before: string): Promise<{ duels: number; votes: number }> {
    return new DuelSweepRepository(this.db).purgeVisitorTraces(before);
  }

  listUpstreamErrors(duelId: string): Promise<UpstreamErrorRecord[]> {
    return new ModelFaultRepository(this.db).listUpstreamErrors(duelId);
  }

  countUpstreamErrorsByModel(since: string): Promise<{ modelId: string; kind: string; count: number }[]> {
    return new ModelFaultRepository(this.db).countUpstreamErrorsByModel(since);
  }

  countServedModelMismatches(since: string): Promise<{ modelId: string; servedModel: string; count: number }[]> {
    return new ModelFaultRepository(this.db).countServedModelMismatches(since);
  }
}
