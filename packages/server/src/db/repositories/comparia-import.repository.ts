import type { Kysely } from 'kysely';
import type { ImportedTurnVerdict } from '../../domain/comparia/comparia-arena-rows';
import type { StyleCounts } from '../../domain/ranking';
import type { Database } from '../database';
import type { ImportedDuel, ImportedSide, ImportedVote, ImportedReaction } from '../../domain/comparia/imported';
import { insertChunked, selectChunked } from './chunked-statements';
import { ComparIaFeedbackRepository } from './comparia-feedback.repository';
import { ComparIaTopicsRepository, type StoredTopics } from './comparia-topics.repository';
export type { ImportedDuel, ImportedTurn, ImportedSide, ImportedVote, ImportedReaction } from '../../domain/comparia/imported';
export type { StoredTopics } from './comparia-topics.repository';

/** A duel already in the store, as the import compares it. */
export interface StoredDuel {
  id: string;
  externalId: string;
  status: string;
  visitorHash: string;
  mode: string;
  modelA: string;
  modelB: string;
  chosenModels: string | null;
  createdAt: string;
  turnCount: number;
  sourceMeta: string | null;
}

/**
 * Writes of `agora import comparia`: imported duels, their turns, votes and reactions. The votes,
 * verdicts, reactions and topics have rooms of their own, reached through this one.
 */
export class ComparIaImportRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The duels of `source` already stored under these external ids. */
  async findDuels(source: string, externalIds: readonly string[]): Promise<Map<string, StoredDuel>> {
    const rows = await selectChunked(externalIds, (chunk) =>
      this.db
        .selectFrom('duels')
        .select([
          'id',
          'external_id',
          'status',
          'visitor_hash',
          'mode',
          'model_a',
          'model_b',
          'chosen_models',
          'created_at',
          'turn_count',
          'source_meta',
        ])
        .where('source', '=', source)
        .where('external_id', 'in', chunk)
        .execute(),
    );
    const stored = rows.map((row): StoredDuel => ({
      id: row.id,
      externalId: row.external_id!,
      status: row.status,
      visitorHash: row.visitor_hash,
      mode: row.mode,
      modelA: row.model_a,
      modelB: row.model_b,
      chosenModels: row.chosen_models,
      createdAt: row.created_at,
      turnCount: row.turn_count,
      sourceMeta: row.source_meta,
    }));
    return new Map(stored.map((duel) => [duel.externalId, duel]));
  }

  /**
   * Stored duels as the import maps rows onto them (their turns and sides, with the style counts
   * the ranking needs): for votes and reactions that name an imported conversation but carry no text.
   */
  async loadImportedDuels(stored: readonly StoredDuel[]): Promise<Map<string, ImportedDuel>> {
    const ids = stored.map((duel) => duel.id);
    const turns = await selectChunked(ids, (chunk) =>
      this.db.selectFrom('turns').select(['duel_id', 'turn', 'prompt', 'status']).where('duel_id', 'in', chunk).orderBy('turn').execute(),
    );
    const sideOf = await this.storedSides(ids);
    return new Map(
      stored.map((duel) => [
        duel.id,
        toImportedDuel(
          duel,
          turns.filter((turn) => turn.duel_id === duel.id),
          (turn, side) => toImportedSide(side, sideOf.get(`${duel.id}|${turn}|${side}`)),
        ),
      ]),
    );
  }

  /** The stored sides of these duels, by `duelId|turn|side`. */
  private async storedSides(duelIds: readonly string[]): Promise<Map<string, StoredSideRow>> {
    const sides = await selectChunked(duelIds, (chunk) =>
      this.db
        .selectFrom('turn_sides')
        .select([
          'duel_id',
          'turn',
          'side',
          'model_id',
          'text',
          'reasoning',
          'output_tokens',
          'duration_ms',
          'status',
          'style',
          'source_meta',
        ])
        .where('duel_id', 'in', chunk)
        .execute(),
    );
    return new Map(sides.map((side) => [`${side.duel_id}|${side.turn}|${side.side}`, side]));
  }

  /** Inserts new duels with their turns and sides, in a few multi-row statements. */
  async insertDuels(duels: readonly { duel: ImportedDuel; status: string }[]): Promise<void> {
    if (duels.length === 0) return;
    await insertChunked([...duels], (chunk) =>
      this.db
        .insertInto('duels')
        .values(
          chunk.map(({ duel, status }) => ({
            id: duel.id,
            visitor_hash: duel.visitorHash,
            mode: duel.mode,
            model_a: duel.modelA,
            model_b: duel.modelB,
            chosen_models: duel.chosenModels,
            locale: null,
            status,
            turn_count: duel.turns.length,
            created_at: duel.createdAt,
            updated_at: duel.createdAt,
            source: duel.source,
            external_id: duel.externalId,
            cohort: null,
            source_meta: duel.sourceMeta,
          })),
        )
        .execute(),
    );
    await this.insertTurns(duels.map(({ duel }) => duel));
  }

  /** Rewrites a stored duel from a newer or fuller copy of it: its row (status kept), turns and sides. */
  async replaceDuel(duel: ImportedDuel): Promise<void> {
    await this.db
      .updateTable('duels')
      .set({
        visitor_hash: duel.visitorHash,
        mode: duel.mode,
        model_a: duel.modelA,
        model_b: duel.modelB,
        chosen_models: duel.chosenModels,
        turn_count: duel.turns.length,
        created_at: duel.createdAt,
        updated_at: duel.createdAt,
        source_meta: duel.sourceMeta,
      })
      .where('id', '=', duel.id)
      .execute();
    await this.db.updateTable('votes').set({ mode: duel.mode }).where('duel_id', '=', duel.id).execute();
    await this.replaceTurns(duel);
  }

  /** Rewrites the turns and sides of a stored duel (a later copy of the conversation has more turns). */
  async replaceTurns(duel: ImportedDuel): Promise<void> {
    await this.db.updateTable('duels').set({ turn_count: duel.turns.length }).where('id', '=', duel.id).execute();
    await this.db.deleteFrom('turn_sides').where('duel_id', '=', duel.id).execute();
    await this.db.deleteFrom('turns').where('duel_id', '=', duel.id).execute();
    await this.insertTurns([duel]);
  }

  private async insertTurns(duels: readonly ImportedDuel[]): Promise<void> {
    const turns = duels.flatMap((duel) => duel.turns.map((turn) => ({ duel, turn })));
    await insertChunked(turns, (chunk) =>
      this.db
        .insertInto('turns')
        .values(
          chunk.map(({ duel, turn }) => ({
            duel_id: duel.id,
            turn: turn.turn,
            prompt: turn.prompt,
            status: turn.status,
            error_code: null,
            frames: null,
            started_at: duel.createdAt,
            ended_at: duel.createdAt,
          })),
        )
        .execute(),
    );
    const sides = turns.flatMap(({ duel, turn }) => turn.sides.map((side) => ({ duel, turn, side })));
    await insertChunked(sides, (chunk) =>
      this.db
        .insertInto('turn_sides')
        .values(
          chunk.map(({ duel, turn, side }) => ({
            duel_id: duel.id,
            turn: turn.turn,
            side: side.side,
            model_id: side.modelId,
            text: side.text,
            reasoning: side.reasoning,
            output_tokens: side.outputTokens,
            output_tokens_source: side.outputTokens === null ? null : 'provider',
            status: side.status,
            error_kind: null,
            finish_reason: null,
            ttft_ms: null,
            duration_ms: side.durationMs,
            identity_leak: 0,
            style: side.style === null ? null : JSON.stringify(side.style),
            source_meta: side.sourceMeta,
          })),
        )
        .execute(),
    );
  }

  async markVoted(duelIds: readonly string[]): Promise<void> {
    await insertChunked([...duelIds], (chunk) => this.db.updateTable('duels').set({ status: 'voted' }).where('id', 'in', chunk).execute());
  }

  // The rooms of their own, one line each: their doc comments are where the code is.

  findTurnVerdicts(duelIds: readonly string[]): Promise<Map<string, ImportedTurnVerdict>> {
    return new ComparIaFeedbackRepository(this.db).findTurnVerdicts(duelIds);
  }

  upsertTurnVerdicts(verdicts: readonly ImportedTurnVerdict[]): Promise<void> {
    return new ComparIaFeedbackRepository(this.db).upsertTurnVerdicts(verdicts);
  }

  findVotes(duelIds: readonly string[]): Promise<Map<string, ImportedVote>> {
    return new ComparIaFeedbackRepository(this.db).findVotes(duelIds);
  }

  insertVotes(votes: readonly ImportedVote[]): Promise<void> {
    return new ComparIaFeedbackRepository(this.db).insertVotes(votes);
  }

  findReactions(duelIds: readonly string[]): Promise<ImportedReaction[]> {
    return new ComparIaFeedbackRepository(this.db).findReactions(duelIds);
  }

  upsertReactions(reactions: readonly ImportedReaction[]): Promise<void> {
    return new ComparIaFeedbackRepository(this.db).upsertReactions(reactions);
  }

  findTopics(duelIds: readonly string[]): Promise<Map<string, StoredTopics>> {
    return new ComparIaTopicsRepository(this.db).findTopics(duelIds);
  }
}

/** A stored answer, as {@link ComparIaImportRepository.loadImportedDuels} reads it. */
interface StoredSideRow {
  model_id: string;
  text: string;
  reasoning: string | null;
  output_tokens: number | null;
  duration_ms: number | null;
  status: string;
  style: string | null;
  source_meta: string | null;
}

/** One side of a stored turn as the import maps it; a missing row reads as a failed, empty answer. */
function toImportedSide(side: 'a' | 'b', row: StoredSideRow | undefined): ImportedSide {
  return {
    side,
    modelId: row?.model_id ?? '',
    text: row?.text ?? '',
    reasoning: row?.reasoning ?? null,
    outputTokens: row?.output_tokens ?? null,
    durationMs: row?.duration_ms ?? null,
    status: row?.status === 'complete' ? 'complete' : 'failed',
    style: row?.style ? (JSON.parse(row.style) as StyleCounts) : null,
    sourceMeta: row?.source_meta ?? null,
  };
}

function toImportedDuel(
  duel: StoredDuel,
  turns: readonly { turn: number; prompt: string; status: string }[],
  sideOf: (turn: number, side: 'a' | 'b') => ImportedSide,
): ImportedDuel {
  return {
    id: duel.id,
    source: 'comparia',
    externalId: duel.externalId,
    visitorHash: duel.visitorHash,
    mode: duel.mode,
    modelA: duel.modelA,
    modelB: duel.modelB,
    chosenModels: duel.chosenModels,
    createdAt: duel.createdAt,
    sourceMeta: duel.sourceMeta,
    turns: turns.map((turn) => ({
      turn: turn.turn,
      prompt: turn.prompt,
      status: turn.status === 'complete' ? 'complete' : 'failed',
      sides: [sideOf(turn.turn, 'a'), sideOf(turn.turn, 'b')],
    })),
  };
}
