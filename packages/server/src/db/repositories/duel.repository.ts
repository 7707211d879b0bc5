import { duelStatusAfterTurn } from '../../domain/arena/duel-rules';
import type { StreamEvent } from '@agora/contract';
import { type Kysely, PostgresAdapter, type Selectable, sql } from 'kysely';
import type { Database, DuelsTable, TurnSidesTable, TurnsTable } from '../database';
import { PreparedQuery } from '../prepared-query';
import { AnnotationRepository } from './annotation.repository';
import { FeedbackRepository, type VoteRecord, voteRow } from './feedback.repository';

/** One frame of a turn's stream as stored with the finished turn: its SSE id within the turn and its event. */
export interface StoredFrame {
  id: number;
  event: StreamEvent;
}

export interface DuelRecord {
  id: string;
  visitorHash: string;
  mode: string;
  modelA: string;
  modelB: string;
  chosenModels: string[] | null;
  locale: string | null;
  status: string;
  turnCount: number;
  createdAt: string;
  /** `arena` (the default when creating), or the dataset an imported duel comes from. */
  source?: string;
  /** The operator's label for the campaign it belongs to (AGORA_COHORT_HOSTS); private cohorts stay out of exports. */
  cohort?: string | null;
}

export interface TurnRecord {
  turn: number;
  prompt: string;
  status: string;
  errorCode: string | null;
  startedAt: string;
  endedAt: string | null;
}

export interface TurnSideRecord {
  turn: number;
  side: 'a' | 'b';
  modelId: string;
  text: string;
  reasoning: string | null;
  outputTokens: number | null;
  outputTokensSource: 'provider' | 'local' | null;
  status: 'complete' | 'failed' | 'cancelled';
  errorKind: string | null;
  finishReason: string | null;
  ttftMs: number | null;
  durationMs: number | null;
  identityLeak: boolean;
  /** What the provider said it served (its stream's `model`), and whether that is another model than the catalogue's. */
  servedModel: string | null;
  servedModelMismatch: boolean;
  /** Style counts of the answer (tokens counted locally, headers, list items, bold), null when it did not complete. */
  style: { len: number; headers: number; lists: number; bold: number } | null;
}

/** A side's answer without its text: what votes, reactions and reveals need. */
export type TurnSideSummary = Omit<TurnSideRecord, 'text' | 'reasoning' | 'servedModel'>;

export interface UpstreamErrorRecord {
  id: string;
  turn: number;
  side: 'a' | 'b';
  modelId: string;
  kind: string;
  statusCode: number | null;
  message: string;
  /** True when the failing model was swapped for another of its pool and the turn went on. */
  replaced: boolean;
  createdAt: string;
}

/** Everything stored when a turn ends, written in one transaction. */
export interface FinishedTurn {
  duelId: string;
  turn: number;
  status: 'complete' | 'failed';
  errorCode: string | null;
  framesJson: string;
  endedAt: string;
  sides: TurnSideRecord[];
  errors: UpstreamErrorRecord[];
  duelStatus: 'ready' | 'failed';
  /** Set when a first-turn model was replaced: the duel's final pairing. */
  models?: { a: string; b: string };
}

const summaryColumns = [
  'turn',
  'side',
  'model_id',
  'output_tokens',
  'output_tokens_source',
  'status',
  'error_kind',
  'finish_reason',
  'ttft_ms',
  'duration_ms',
  'identity_leak',
  'served_model_mismatch',
  'style',
] as const;

function toSideSummary(row: Pick<Selectable<TurnSidesTable>, (typeof summaryColumns)[number]>): TurnSideSummary {
  return {
    turn: row.turn,
    side: row.side as 'a' | 'b',
    modelId: row.model_id,
    outputTokens: row.output_tokens,
    outputTokensSource: row.output_tokens_source as TurnSideRecord['outputTokensSource'],
    status: row.status as TurnSideRecord['status'],
    errorKind: row.error_kind,
    finishReason: row.finish_reason,
    ttftMs: row.ttft_ms,
    durationMs: row.duration_ms,
    identityLeak: row.identity_leak === 1,
    servedModelMismatch: row.served_model_mismatch === 1,
    style: row.style ? (JSON.parse(row.style) as TurnSideRecord['style']) : null,
  };
}

function toSideRecord(row: Selectable<TurnSidesTable>): TurnSideRecord {
  return { ...toSideSummary(row), text: row.text, reasoning: row.reasoning, servedModel: row.served_model };
}

function toTurnRecord(
  row: Pick<Selectable<TurnsTable>, 'turn' | 'prompt' | 'status' | 'error_code' | 'started_at' | 'ended_at'>,
): TurnRecord {
  return {
    turn: row.turn,
    prompt: row.prompt,
    status: row.status,
    errorCode: row.error_code,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

const duelColumns = [
  'id',
  'visitor_hash',
  'mode',
  'model_a',
  'model_b',
  'chosen_models',
  'locale',
  'status',
  'turn_count',
  'created_at',
  'source',
  'cohort',
] as const;

function toDuelRecord(row: Selectable<Pick<DuelsTable, (typeof duelColumns)[number]>>): DuelRecord {
  return {
    id: row.id,
    visitorHash: row.visitor_hash,
    mode: row.mode,
    modelA: row.model_a,
    modelB: row.model_b,
    chosenModels: row.chosen_models ? (JSON.parse(row.chosen_models) as string[]) : null,
    locale: row.locale,
    status: row.status,
    turnCount: row.turn_count,
    createdAt: row.created_at,
    source: row.source,
    cohort: row.cohort,
  };
}

// The vote path, the busiest write of the arena: one read and one short transaction of two statements, compiled once.
const voteContextQuery = new PreparedQuery((db, values: { duelId: string }) =>
  db
    .selectFrom('duels')
    .leftJoin('turn_sides', 'turn_sides.duel_id', 'duels.id')
    .select(duelColumns.map((column) => `duels.${column}` as const))
    .select([
      'turn_sides.turn',
      'turn_sides.side',
      'turn_sides.model_id',
      'turn_sides.output_tokens',
      'turn_sides.output_tokens_source',
      'turn_sides.status as side_status',
    ])
    .select([
      'turn_sides.error_kind',
      'turn_sides.finish_reason',
      'turn_sides.ttft_ms',
      'turn_sides.duration_ms',
      'turn_sides.identity_leak',
      'turn_sides.served_model_mismatch',
      'turn_sides.style',
    ])
    .where('duels.id', '=', values.duelId)
    .orderBy('turn_sides.turn')
    .orderBy('turn_sides.side'),
);

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
    }),
);

const insertTurnQuery = new PreparedQuery(
  (db, values: { duel_id: string; turn: number; prompt: string; status: string; started_at: string }) =>
    db.insertInto('turns').values({
      duel_id: values.duel_id,
      turn: values.turn,
      prompt: values.prompt,
      status: values.status,
      error_code: null,
      frames: null,
      started_at: values.started_at,
      ended_at: null,
    }),
);

const markVotedQuery = new PreparedQuery((db, values: { duelId: string; at: string }) =>
  db.updateTable('duels').set({ status: 'voted', updated_at: values.at }).where('id', '=', values.duelId).where('status', '=', 'ready'),
);

const insertVoteQuery = new PreparedQuery((db, values: ReturnType<typeof voteRow>) =>
  db.insertInto('votes').values({
    duel_id: values.duel_id,
    choice: values.choice,
    model_a: values.model_a,
    model_b: values.model_b,
    tags_a: values.tags_a,
    tags_b: values.tags_b,
    comment_a: values.comment_a,
    comment_b: values.comment_b,
    identity_leak: values.identity_leak,
    served_model_mismatch: values.served_model_mismatch,
    mode: values.mode,
    locale: values.locale,
    created_at: values.created_at,
    style_a: values.style_a,
    style_b: values.style_b,
    tokens_a: values.tokens_a,
    tokens_b: values.tokens_b,
    energy_a: values.energy_a,
    energy_b: values.energy_b,
    client_hash: values.client_hash,
  }),
);

/** Duels, their turns and each side's answer. */
export class DuelRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts a new duel with its first turn, streaming, in one transaction (a duel without its turn would be stuck). */
  async createWithFirstTurn(duel: DuelRecord, prompt: string): Promise<void> {
    if (!this.db.isTransaction) {
      await this.db.transaction().execute((db) => new DuelRepository(db).createWithFirstTurn(duel, prompt));
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
    });
    await this.insertTurn(duel.id, { turn: 1, prompt, status: 'streaming', errorCode: null, startedAt: duel.createdAt, endedAt: null });
  }

  /**
   * Starts a follow-up turn if the duel is still `ready` with the expected turn count.
   * Returns false when another request changed the duel first (the caller answers 409).
   */
  async startFollowUpTurn(duelId: string, turn: TurnRecord): Promise<boolean> {
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
      await this.insertTurn(duelId, turn, db);
      return true;
    };
    return this.db.isTransaction ? write(this.db) : this.db.transaction().execute(write);
  }

  private async insertTurn(duelId: string, turn: TurnRecord, db: Kysely<Database> = this.db): Promise<void> {
    await insertTurnQuery.execute(db, {
      duel_id: duelId,
      turn: turn.turn,
      prompt: turn.prompt,
      status: turn.status,
      started_at: turn.startedAt,
    });
  }

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

  /** Appends frames of a turn still streaming, for the other instances to follow (several instances only). */
  async appendLiveFrames(duelId: string, turn: number, frames: readonly StoredFrame[]): Promise<void> {
    if (frames.length === 0) return;
    await this.db
      .insertInto('live_frames')
      .values(frames.map((frame) => ({ duel_id: duelId, turn, frame_id: frame.id, event_json: JSON.stringify(frame.event) })))
      .onConflict((conflict) => conflict.columns(['duel_id', 'turn', 'frame_id']).doNothing())
      .execute();
  }

  /** The frames of a turn still streaming after `afterId`, in order. */
  async liveFramesAfter(duelId: string, turn: number, afterId: number): Promise<StoredFrame[]> {
    const rows = await this.db
      .selectFrom('live_frames')
      .select(['frame_id', 'event_json'])
      .where('duel_id', '=', duelId)
      .where('turn', '=', turn)
      .where('frame_id', '>', afterId)
      .orderBy('frame_id')
      .execute();
    return rows.map((row) => ({ id: row.frame_id, event: JSON.parse(row.event_json) as StreamEvent }));
  }

  /** Forgets a turn's live frames once it is stored with all of them. */
  async dropLiveFrames(duelId: string, turn: number): Promise<void> {
    await this.db.deleteFrom('live_frames').where('duel_id', '=', duelId).where('turn', '=', turn).execute();
  }

  async findById(duelId: string): Promise<DuelRecord | undefined> {
    const row = await this.db.selectFrom('duels').select(duelColumns).where('id', '=', duelId).executeTakeFirst();
    return row ? toDuelRecord(row) : undefined;
  }

  /** A duel with its sides' summaries ({@link listSideSummaries}) in one read: what a vote needs. */
  async findVoteContext(duelId: string): Promise<{ duel: DuelRecord; sides: TurnSideSummary[] } | undefined> {
    const { rows } = await voteContextQuery.execute(this.db, { duelId });
    if (rows.length === 0) return undefined;
    const sides = rows.flatMap((row) =>
      row.turn === null
        ? []
        : [
            toSideSummary({
              ...row,
              turn: row.turn,
              side: row.side!,
              model_id: row.model_id!,
              status: row.side_status!,
              identity_leak: row.identity_leak!,
              served_model_mismatch: row.served_model_mismatch!,
            }),
          ],
    );
    return { duel: toDuelRecord(rows[0]!), sides };
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

  async listUpstreamErrors(duelId: string): Promise<UpstreamErrorRecord[]> {
    const rows = await this.db.selectFrom('upstream_errors').selectAll().where('duel_id', '=', duelId).orderBy('created_at').execute();
    return rows.map((row) => ({
      id: row.id,
      turn: row.turn,
      side: row.side as 'a' | 'b',
      modelId: row.model_id,
      kind: row.kind,
      statusCode: row.status_code,
      message: row.message,
      replaced: row.replaced === 1,
      createdAt: row.created_at,
    }));
  }

  /** Stores a finished turn: the turn row, both sides, the upstream errors and the duel's new status. */
  async finishTurn(finished: FinishedTurn): Promise<void> {
    await this.db
      .updateTable('turns')
      .set({ status: finished.status, error_code: finished.errorCode, frames: finished.framesJson, ended_at: finished.endedAt })
      .where('duel_id', '=', finished.duelId)
      .where('turn', '=', finished.turn)
      .execute();
    await this.db
      .insertInto('turn_sides')
      .values(
        finished.sides.map((side) => ({
          duel_id: finished.duelId,
          turn: side.turn,
          side: side.side,
          model_id: side.modelId,
          text: side.text,
          reasoning: side.reasoning,
          output_tokens: side.outputTokens,
          output_tokens_source: side.outputTokensSource,
          status: side.status,
          error_kind: side.errorKind,
          finish_reason: side.finishReason,
          ttft_ms: side.ttftMs,
          duration_ms: side.durationMs,
          identity_leak: side.identityLeak ? 1 : 0,
          served_model: side.servedModel,
          served_model_mismatch: side.servedModelMismatch ? 1 : 0,
          style: side.style ? JSON.stringify(side.style) : null,
        })),
      )
      .execute();
    if (finished.errors.length > 0) {
      await this.db
        .insertInto('upstream_errors')
        .values(
          finished.errors.map((error) => ({
            id: error.id,
            duel_id: finished.duelId,
            turn: error.turn,
            side: error.side,
            model_id: error.modelId,
            kind: error.kind,
            status_code: error.statusCode,
            message: error.message,
            replaced: error.replaced ? 1 : 0,
            created_at: error.createdAt,
          })),
        )
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
  }

  /** Moves a `ready` duel to `voted`; false when it was not `ready` any more (a concurrent vote or turn). */
  async markVoted(duelId: string, at: string): Promise<boolean> {
    const updated = await markVotedQuery.execute(this.db, { duelId, at });
    return Number(updated.numAffectedRows) === 1;
  }

  /**
   * Closes a `ready` duel with its vote: marks it `voted` and stores the vote, in the caller's
   * transaction. False, with nothing stored, when the duel was not `ready` any more (a concurrent vote or turn).
   */
  async closeWithVote(vote: VoteRecord): Promise<boolean> {
    if (!(await this.markVoted(vote.duelId, vote.createdAt))) return false;
    await insertVoteQuery.execute(this.db, voteRow(vote));
    return true;
  }

  /**
   * Records a group of votes (group commit) and queues their conversations for post-processing,
   * atomically. Only the first vote of each duel still `ready` counts; the result says, vote by
   * vote, whether it was recorded. On PostgreSQL one statement does it all (data-modifying common
   * table expressions, committed on their own): one round trip instead of five (BEGIN, three
   * statements, COMMIT), each of which a remote server makes the group wait for. On SQLite, which
   * has no such statement, the same three statements run in the caller's transaction or in one of
   * their own.
   */
  async recordVotes(votes: readonly VoteRecord[]): Promise<boolean[]> {
    const firstOfDuel = new Map<string, number>();
    votes.forEach((vote, index) => {
      if (!firstOfDuel.has(vote.duelId)) firstOfDuel.set(vote.duelId, index);
    });
    const at = votes.reduce((latest, vote) => (vote.createdAt > latest ? vote.createdAt : latest), votes[0]!.createdAt);
    let closedIds: Set<string>;
    if (this.db.getExecutor().adapter instanceof PostgresAdapter) {
      closedIds = await this.closeAndQueueInOneStatement(
        [...firstOfDuel.values()].map((index) => votes[index]!),
        at,
      );
    } else if (this.db.isTransaction) {
      closedIds = await this.closeAndQueue(votes, firstOfDuel, at);
    } else {
      closedIds = await this.db
        .transaction()
        .execute((transaction) => new DuelRepository(transaction).closeAndQueue(votes, firstOfDuel, at));
    }
    return votes.map((vote, index) => closedIds.has(vote.duelId) && firstOfDuel.get(vote.duelId) === index);
  }

  /** SQLite: the ready duels marked voted, their first votes stored, their conversations queued. */
  private async closeAndQueue(votes: readonly VoteRecord[], firstOfDuel: Map<string, number>, at: string): Promise<Set<string>> {
    const closedIds =
      votes.length === 1
        ? new Set((await this.closeWithVote(votes[0]!)) ? [votes[0]!.duelId] : [])
        : await this.closeWithVotes(votes, firstOfDuel, at);
    if (closedIds.size > 0) await new AnnotationRepository(this.db).enqueue([...closedIds], at);
    return closedIds;
  }

  /**
   * PostgreSQL: {@link closeAndQueue} as one statement. The votes travel as one JSON parameter, so
   * the text never changes with the group's size. The queueing keeps the rule of
   * {@link AnnotationRepository.enqueue} (a whole annotation stays, a grown one is queued again).
   */
  private async closeAndQueueInOneStatement(firstVotes: readonly VoteRecord[], at: string): Promise<Set<string>> {
    const { rows } = await sql<{ id: string }>`
      with input as (
        select * from json_to_recordset(${JSON.stringify(firstVotes.map(voteRow))}::json) as v(
          duel_id text, choice text, model_a text, model_b text, tags_a text, tags_b text, comment_a text, comment_b text,
          identity_leak integer, served_model_mismatch integer, mode text, locale text, created_at text, style_a text, style_b text,
          tokens_a integer, tokens_b integer, energy_a text, energy_b text, client_hash text)
      ), closed as (
        update duels set status = 'voted', updated_at = ${at}
        where id in (select duel_id from input) and status = 'ready'
        returning id
      ), recorded as (
        insert into votes (duel_id, choice, model_a, model_b, tags_a, tags_b, comment_a, comment_b, identity_leak, served_model_mismatch, mode, locale, created_at, style_a, style_b, tokens_a, tokens_b, energy_a, energy_b, client_hash)
        select duel_id, choice, model_a, model_b, tags_a, tags_b, comment_a, comment_b, identity_leak, served_model_mismatch, mode, locale, created_at, style_a, style_b, tokens_a, tokens_b, energy_a, energy_b, client_hash
        from input where duel_id in (select id from closed)
      ), queued as (
        insert into conversation_annotations (duel_id, status, attempts, next_attempt_at, turns_annotated, model_status, updated_at)
        select id, 'pending', 0, ${at}, 0, 'pending', ${at} from closed
        on conflict (duel_id) do update
          set status = 'pending', attempts = 0, last_error = null, next_attempt_at = excluded.next_attempt_at, updated_at = excluded.updated_at
          where conversation_annotations.status = 'done'
            and conversation_annotations.turns_annotated < (select turn_count from duels where duels.id = conversation_annotations.duel_id)
      )
      select id from closed`.execute(this.db);
    return new Set(rows.map((row) => row.id));
  }

  /**
   * {@link closeWithVote} for several votes at once, in two statements whatever their number: one
   * update of the `ready` duels among them, one insert of the first vote of each closed duel.
   */
  private async closeWithVotes(votes: readonly VoteRecord[], firstOfDuel: Map<string, number>, at: string): Promise<Set<string>> {
    const closed = await this.db
      .updateTable('duels')
      .set({ status: 'voted', updated_at: at })
      .where('id', 'in', [...firstOfDuel.keys()])
      .where('status', '=', 'ready')
      .returning('id')
      .execute();
    const closedIds = new Set(closed.map((row) => row.id));
    const rows = [...firstOfDuel.values()].filter((index) => closedIds.has(votes[index]!.duelId)).map((index) => voteRow(votes[index]!));
    if (rows.length > 0) await this.db.insertInto('votes').values(rows).execute();
    return closedIds;
  }

  /** Per-model upstream failures over a period, for operators. */
  async countUpstreamErrorsByModel(since: string): Promise<{ modelId: string; kind: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('upstream_errors')
      .select(['model_id', 'kind', (eb) => eb.fn.countAll<string | number>().as('count')])
      .where('created_at', '>=', since)
      .groupBy(['model_id', 'kind'])
      .orderBy('model_id')
      .orderBy('kind')
      .execute();
    return rows.map((row) => ({ modelId: row.model_id, kind: row.kind, count: Number(row.count) }));
  }

  /** Answers whose provider named another model than the catalogue's, per model and served name, since a time. */
  async countServedModelMismatches(since: string): Promise<{ modelId: string; servedModel: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('turn_sides')
      .innerJoin('turns', (join) => join.onRef('turns.duel_id', '=', 'turn_sides.duel_id').onRef('turns.turn', '=', 'turn_sides.turn'))
      .select(['turn_sides.model_id', 'turn_sides.served_model', (eb) => eb.fn.countAll<string | number>().as('count')])
      .where('turn_sides.served_model_mismatch', '=', 1)
      .where('turns.started_at', '>=', since)
      .groupBy(['turn_sides.model_id', 'turn_sides.served_model'])
      .orderBy('turn_sides.model_id')
      .orderBy('turn_sides.served_model')
      .execute();
    return rows.map((row) => ({ modelId: row.model_id, servedModel: row.served_model ?? '', count: Number(row.count) }));
  }
}
