import type { Kysely } from 'kysely';
import type { Database } from '../database';

export interface ReactionRecord {
  duelId: string;
  turn: number;
  side: 'a' | 'b';
  modelId: string;
  value: 'like' | 'dislike';
  tags: string[];
  comment: string | null;
  at: string;
}

export interface VoteRecord {
  duelId: string;
  choice: string;
  modelA: string;
  modelB: string;
  tagsA: string[];
  tagsB: string[];
  commentA: string | null;
  commentB: string | null;
  identityLeak: boolean;
  mode: string;
  locale: string | null;
  createdAt: string;
}

/** What visitors say about duels: reactions on single answers, the vote, reports. */
export class FeedbackRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts or replaces the reaction on one answer. */
  async upsertReaction(reaction: ReactionRecord): Promise<void> {
    const values = { value: reaction.value, tags: JSON.stringify(reaction.tags), comment: reaction.comment, updated_at: reaction.at };
    await this.db
      .insertInto('reactions')
      .values({ duel_id: reaction.duelId, turn: reaction.turn, side: reaction.side, model_id: reaction.modelId, created_at: reaction.at, ...values })
      .onConflict((conflict) => conflict.columns(['duel_id', 'turn', 'side']).doUpdateSet(values))
      .execute();
  }

  async deleteReaction(duelId: string, turn: number, side: 'a' | 'b'): Promise<void> {
    await this.db.deleteFrom('reactions').where('duel_id', '=', duelId).where('turn', '=', turn).where('side', '=', side).execute();
  }

  async listReactions(duelId: string): Promise<ReactionRecord[]> {
    const rows = await this.db.selectFrom('reactions').selectAll().where('duel_id', '=', duelId).orderBy('turn').orderBy('side').execute();
    return rows.map((row) => ({
      duelId: row.duel_id,
      turn: row.turn,
      side: row.side as 'a' | 'b',
      modelId: row.model_id,
      value: row.value as 'like' | 'dislike',
      tags: JSON.parse(row.tags) as string[],
      comment: row.comment,
      at: row.updated_at,
    }));
  }

  async insertVote(vote: VoteRecord): Promise<void> {
    await this.db
      .insertInto('votes')
      .values({
        duel_id: vote.duelId,
        choice: vote.choice,
        model_a: vote.modelA,
        model_b: vote.modelB,
        tags_a: JSON.stringify(vote.tagsA),
        tags_b: JSON.stringify(vote.tagsB),
        comment_a: vote.commentA,
        comment_b: vote.commentB,
        identity_leak: vote.identityLeak ? 1 : 0,
        mode: vote.mode,
        locale: vote.locale,
        created_at: vote.createdAt,
      })
      .execute();
  }

  async findVote(duelId: string): Promise<VoteRecord | undefined> {
    const row = await this.db.selectFrom('votes').selectAll().where('duel_id', '=', duelId).executeTakeFirst();
    if (!row) return undefined;
    return {
      duelId: row.duel_id,
      choice: row.choice,
      modelA: row.model_a,
      modelB: row.model_b,
      tagsA: JSON.parse(row.tags_a) as string[],
      tagsB: JSON.parse(row.tags_b) as string[],
      commentA: row.comment_a,
      commentB: row.comment_b,
      identityLeak: row.identity_leak === 1,
      mode: row.mode,
      locale: row.locale,
      createdAt: row.created_at,
    };
  }

  async countVotes(): Promise<number> {
    const row = await this.db.selectFrom('votes').select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async insertReport(report: { id: string; duelId: string; reason: string; createdAt: string }): Promise<void> {
    await this.db.insertInto('reports').values({ id: report.id, duel_id: report.duelId, reason: report.reason, created_at: report.createdAt }).execute();
  }
}
