import type { Kysely } from 'kysely';
import type { ImportedTurnVerdict, TurnChoice } from '../../domain/comparia/comparia-arena-rows';
import type { StyleCounts } from '../../domain/ranking';
import type { Database } from '../database';
import type { ImportedDuel, ImportedSide, ImportedVote, ImportedReaction } from '../../domain/comparia/imported';
export type { ImportedDuel, ImportedTurn, ImportedSide, ImportedVote, ImportedReaction } from '../../domain/comparia/imported';

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

/** Rows per multi-row insert: well under both dialects' bound-parameter limits. */
const INSERT_CHUNK = 500;

async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) await insert(rows.slice(start, start + INSERT_CHUNK));
}

/** Runs a lookup by a list of ids in chunks (bound-parameter limits) and concatenates the rows. */
async function selectChunked<T>(ids: readonly string[], select: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (let start = 0; start < ids.length; start += INSERT_CHUNK) rows.push(...(await select(ids.slice(start, start + INSERT_CHUNK))));
  return rows;
}

/** Writes of `agora import comparia`: imported duels, their turns, votes and reactions. */
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
    const sides = await selectChunked(ids, (chunk) =>
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
    const sideOf = new Map(sides.map((side) => [`${side.duel_id}|${side.turn}|${side.side}`, side]));
    const importedSide = (duelId: string, turn: number, side: 'a' | 'b'): ImportedSide => {
      const row = sideOf.get(`${duelId}|${turn}|${side}`);
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
    };
    return new Map(
      stored.map((duel) => [
        duel.id,
        {
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
          turns: turns
            .filter((turn) => turn.duel_id === duel.id)
            .map((turn) => ({
              turn: turn.turn,
              prompt: turn.prompt,
              status: turn.status === 'complete' ? 'complete' : 'failed',
              sides: [importedSide(duel.id, turn.turn, 'a'), importedSide(duel.id, turn.turn, 'b')],
            })),
        },
      ]),
    );
  }

  /** The stored turn verdicts of these duels, by `duelId|turn`. */
  async findTurnVerdicts(duelIds: readonly string[]): Promise<Map<string, ImportedTurnVerdict>> {
    const rows = await selectChunked(duelIds, (chunk) =>
      this.db.selectFrom('turn_verdicts').selectAll().where('duel_id', 'in', chunk).execute(),
    );
    return new Map(
      rows.map((row) => [
        `${row.duel_id}|${row.turn}`,
        { duelId: row.duel_id, turn: row.turn, choice: row.choice as TurnChoice, sourceId: row.source_id ?? '', createdAt: row.created_at },
      ]),
    );
  }

  /** Writes turn verdicts, replacing a stored verdict on the same turn. */
  async upsertTurnVerdicts(verdicts: readonly ImportedTurnVerdict[]): Promise<void> {
    await insertChunked([...verdicts], (chunk) =>
      this.db
        .insertInto('turn_verdicts')
        .values(
          chunk.map((verdict) => ({
            duel_id: verdict.duelId,
            turn: verdict.turn,
            choice: verdict.choice,
            source_id: verdict.sourceId,
            created_at: verdict.createdAt,
          })),
        )
        .onConflict((conflict) =>
          conflict.columns(['duel_id', 'turn']).doUpdateSet((update) => ({
            choice: update.ref('excluded.choice'),
            source_id: update.ref('excluded.source_id'),
            created_at: update.ref('excluded.created_at'),
          })),
        )
        .execute(),
    );
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

  /** The stored votes of these duels, by duel id. */
  async findVotes(duelIds: readonly string[]): Promise<Map<string, ImportedVote>> {
    const rows = await selectChunked(duelIds, (chunk) =>
      this.db
        .selectFrom('votes')
        .select([
          'duel_id',
          'choice',
          'model_a',
          'model_b',
          'tags_a',
          'tags_b',
          'comment_a',
          'comment_b',
          'mode',
          'created_at',
          'style_a',
          'style_b',
          'tokens_a',
          'tokens_b',
          'source_meta',
        ])
        .where('duel_id', 'in', chunk)
        .execute(),
    );
    const votes = rows.map((row): ImportedVote => ({
      duelId: row.duel_id,
      choice: row.choice,
      modelA: row.model_a,
      modelB: row.model_b,
      tagsA: row.tags_a,
      tagsB: row.tags_b,
      commentA: row.comment_a,
      commentB: row.comment_b,
      mode: row.mode,
      createdAt: row.created_at,
      styleA: row.style_a,
      styleB: row.style_b,
      tokensA: row.tokens_a,
      tokensB: row.tokens_b,
      sourceMeta: row.source_meta,
    }));
    return new Map(votes.map((vote) => [vote.duelId, vote]));
  }

  async insertVotes(votes: readonly ImportedVote[]): Promise<void> {
    await insertChunked([...votes], (chunk) =>
      this.db
        .insertInto('votes')
        .values(
          chunk.map((vote) => ({
            duel_id: vote.duelId,
            choice: vote.choice,
            model_a: vote.modelA,
            model_b: vote.modelB,
            tags_a: vote.tagsA,
            tags_b: vote.tagsB,
            comment_a: vote.commentA,
            comment_b: vote.commentB,
            identity_leak: 0,
            mode: vote.mode,
            locale: null,
            created_at: vote.createdAt,
            style_a: vote.styleA,
            style_b: vote.styleB,
            tokens_a: vote.tokensA,
            tokens_b: vote.tokensB,
            energy_a: null,
            energy_b: null,
            source_meta: vote.sourceMeta,
          })),
        )
        .execute(),
    );
  }

  /** The stored reactions of these duels. */
  async findReactions(duelIds: readonly string[]): Promise<ImportedReaction[]> {
    const rows = await selectChunked(duelIds, (chunk) =>
      this.db
        .selectFrom('reactions')
        .select(['duel_id', 'turn', 'side', 'model_id', 'value', 'tags', 'comment', 'created_at', 'source_meta'])
        .where('duel_id', 'in', chunk)
        .execute(),
    );
    return rows.map((row) => ({
      duelId: row.duel_id,
      turn: row.turn,
      side: row.side as 'a' | 'b',
      modelId: row.model_id,
      value: row.value as 'like' | 'dislike',
      tags: row.tags,
      comment: row.comment,
      createdAt: row.created_at,
      sourceMeta: row.source_meta,
    }));
  }

  /** The annotations of these duels, by duel id (written through the annotation repository). */
  async findTopics(duelIds: readonly string[]): Promise<Map<string, StoredTopics>> {
    const rows = await selectChunked(duelIds, (chunk) =>
      this.db
        .selectFrom('conversation_annotations')
        .select([
          'duel_id',
          'model_id',
          'status',
          'contains_pii',
          'turns_annotated',
          'languages',
          'categories',
          'keywords',
          'short_summary',
          'updated_at',
        ])
        .where('duel_id', 'in', chunk)
        .execute(),
    );
    return new Map(
      rows.map((row) => [
        row.duel_id,
        {
          modelId: row.model_id,
          status: row.status,
          containsPii: row.contains_pii,
          turnsAnnotated: row.turns_annotated,
          languages: row.languages,
          categories: row.categories,
          keywords: row.keywords,
          shortSummary: row.short_summary,
          updatedAt: row.updated_at,
        },
      ]),
    );
  }

  /** Inserts reactions, or replaces the one already on the same answer (at most one per answer in a call). */
  async upsertReactions(reactions: readonly ImportedReaction[]): Promise<void> {
    await insertChunked([...reactions], (chunk) =>
      this.db
        .insertInto('reactions')
        .values(
          chunk.map((reaction) => ({
            duel_id: reaction.duelId,
            turn: reaction.turn,
            side: reaction.side,
            model_id: reaction.modelId,
            value: reaction.value,
            tags: reaction.tags,
            comment: reaction.comment,
            created_at: reaction.createdAt,
            updated_at: reaction.createdAt,
            source_meta: reaction.sourceMeta,
          })),
        )
        .onConflict((conflict) =>
          conflict.columns(['duel_id', 'turn', 'side']).doUpdateSet((eb) => ({
            model_id: eb.ref('excluded.model_id'),
            value: eb.ref('excluded.value'),
            tags: eb.ref('excluded.tags'),
            comment: eb.ref('excluded.comment'),
            created_at: eb.ref('excluded.created_at'),
            updated_at: eb.ref('excluded.updated_at'),
            source_meta: eb.ref('excluded.source_meta'),
          })),
        )
        .execute(),
    );
  }
}

/** What an imported conversation's annotation holds, as stored (lists as JSON text), to tell whether it must be written. */
export interface StoredTopics {
  modelId: string | null;
  status: string;
  containsPii: number | null;
  turnsAnnotated: number;
  languages: string | null;
  categories: string | null;
  keywords: string | null;
  shortSummary: string | null;
  updatedAt: string;
}
