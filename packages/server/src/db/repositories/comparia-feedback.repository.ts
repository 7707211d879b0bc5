import type { Kysely } from 'kysely';
import type { ImportedTurnVerdict, TurnChoice } from '../../domain/comparia/comparia-arena-rows';
import type { ImportedReaction, ImportedVote } from '../../domain/comparia/imported';
import type { Database } from '../database';
import { insertChunked, selectChunked } from './chunked-statements';

/** What `agora import comparia` reads and writes of what people said about imported duels: turn verdicts, votes and reactions. */
export class ComparIaFeedbackRepository {
  constructor(private readonly db: Kysely<Database>) {}

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
