import { type Kysely, sql } from 'kysely';
import { rankingCategories } from '../../domain/annotation/capabilities';
import type { Database } from '../database';
import type { TurnLanguages } from './annotation.repository';
import { insertReportOnce, type ReportRecord } from './report-insert';
import { rankingVotesQuery, toRankingVoteRecord } from './ranking-vote-row';
import type { SideRankingData, RankingVoteRecord, RankingReactionRecord } from '../../domain/ranking/ranking-records';
export type { SideRankingData, RankingVoteRecord, RankingReactionRecord } from '../../domain/ranking/ranking-records';

/** Duel ids per statement when reading votes by id. */
const DUEL_ID_BATCH = 500;
/** Duel ids per statement when reading only who voted (within SQLite's and PostgreSQL's parameter limits). */
const OWNER_BATCH = 5_000;

/** A vote of a visitor's history, as the visitor's integrity rules read it. */
export type VisitorVote = Record<'duel_id' | 'created_at' | 'choice' | 'model_a' | 'model_b' | 'source', string>;

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
  /** A side's provider served another model than the catalogue's (domain/arena/served-model.ts). */
  servedModelMismatch?: boolean;
  mode: string;
  locale: string | null;
  createdAt: string;
  /** Hash of the client address it came from (integrity rules); absent for imported votes. */
  clientHash?: string | null;
  /** What the ranking needs of each side, fixed when the vote is cast. */
  ranking?: { a: SideRankingData; b: SideRankingData };
}

/** What changed about a vote, for a reader that follows changes: it was cast, its conversation annotated, or it was reviewed. */
export type RankingChange = 'voted' | 'annotated' | 'reviewed';
const CHANGE_COLUMN = { voted: 'votes.created_at', annotated: 'a.updated_at', reviewed: 'review.decided_at' } as const;

/** A vote as a row of `votes`. */
export function voteRow(vote: VoteRecord) {
  return {
    duel_id: vote.duelId,
    choice: vote.choice,
    model_a: vote.modelA,
    model_b: vote.modelB,
    tags_a: JSON.stringify(vote.tagsA),
    tags_b: JSON.stringify(vote.tagsB),
    comment_a: vote.commentA,
    comment_b: vote.commentB,
    identity_leak: vote.identityLeak ? 1 : 0,
    served_model_mismatch: vote.servedModelMismatch ? 1 : 0,
    mode: vote.mode,
    locale: vote.locale,
    created_at: vote.createdAt,
    style_a: vote.ranking ? JSON.stringify(vote.ranking.a.style) : null,
    style_b: vote.ranking ? JSON.stringify(vote.ranking.b.style) : null,
    tokens_a: vote.ranking?.a.outputTokens ?? null,
    tokens_b: vote.ranking?.b.outputTokens ?? null,
    energy_a: vote.ranking?.a.energyWh ? JSON.stringify(vote.ranking.a.energyWh) : null,
    energy_b: vote.ranking?.b.energyWh ? JSON.stringify(vote.ranking.b.energyWh) : null,
    client_hash: vote.clientHash ?? null,
  };
}

const jsonList = (text: string | null): string[] | null => (text === null ? null : (JSON.parse(text) as string[]));

/** What visitors say about duels: reactions on single answers, the vote, reports. */
export class FeedbackRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts or replaces the reaction on one answer. */
  async upsertReaction(reaction: ReactionRecord): Promise<void> {
    const values = { value: reaction.value, tags: JSON.stringify(reaction.tags), comment: reaction.comment, updated_at: reaction.at };
    await this.db
      .insertInto('reactions')
      .values({
        duel_id: reaction.duelId,
        turn: reaction.turn,
        side: reaction.side,
        model_id: reaction.modelId,
        created_at: reaction.at,
        ...values,
      })
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
    await this.db.insertInto('votes').values(voteRow(vote)).execute();
  }

  /** Every vote with what the ranking needs, oldest first. */
  async listRankingVotes(): Promise<RankingVoteRecord[]> {
    const rows = await rankingVotesQuery(this.db).orderBy('votes.created_at').orderBy('votes.duel_id').execute();
    return rows.map(toRankingVoteRecord);
  }

  /** The votes of these duels with what the ranking needs, in batches (a statement's parameters are bounded). */
  async rankingVotesOf(duelIds: readonly string[]): Promise<RankingVoteRecord[]> {
    const records: RankingVoteRecord[] = [];
    for (let start = 0; start < duelIds.length; start += DUEL_ID_BATCH) {
      const batch = duelIds.slice(start, start + DUEL_ID_BATCH);
      for (const row of await rankingVotesQuery(this.db).where('votes.duel_id', 'in', batch).execute())
        records.push(toRankingVoteRecord(row));
    }
    return records;
  }

  /**
   * What the integrity rules need to judge one new vote: its own row in full, and the visitor's other
   * votes reduced to what the visitor's rules read (no texts: a visitor's history is read on every vote).
   */
  async judgedVote(duelId: string, visitorHash: string): Promise<{ vote: RankingVoteRecord | undefined; history: VisitorVote[] }> {
    const own = await rankingVotesQuery(this.db).where('votes.duel_id', '=', duelId).executeTakeFirst();
    const columns = ['votes.duel_id', 'votes.created_at', 'votes.choice', 'votes.model_a', 'votes.model_b', 'duels.source'] as const;
    const visitors = this.db.selectFrom('votes').innerJoin('duels', 'duels.id', 'votes.duel_id').select(columns);
    const history = await visitors.where('duels.visitor_hash', '=', visitorHash).where('votes.duel_id', '!=', duelId).execute();
    return { vote: own && toRankingVoteRecord(own), history };
  }

  /**
   * The same votes in pages of `pageSize` (keyset: a reader holds one page of objects at a time,
   * whatever the number of votes). Every vote in order of `created_at`; or, with `changed`, the
   * votes cast, annotated or reviewed at or after `since`, in the order of that change.
   */
  async *rankingVotePages(pageSize: number, changed?: { by: RankingChange; since: string }): AsyncGenerator<RankingVoteRecord[]> {
    const column = CHANGE_COLUMN[changed?.by ?? 'voted'];
    let after: { changedAt: string; duelId: string } | undefined;
    for (;;) {
      const rows = await rankingVotesQuery(this.db)
        .select(sql.ref<string>(column).as('changed_at'))
        .$if(changed !== undefined, (qb) => qb.where(column, '>=', changed!.since))
        .$if(after !== undefined, (qb) =>
          qb.where((eb) => eb(eb.refTuple(column, 'votes.duel_id'), '>', eb.tuple(after!.changedAt, after!.duelId))),
        )
        .orderBy(column)
        .orderBy('votes.duel_id')
        .limit(pageSize)
        .execute();
      if (rows.length === 0) return;
      const last = rows[rows.length - 1]!;
      after = { changedAt: last.changed_at, duelId: last.duel_id };
      yield rows.map(toRankingVoteRecord);
      if (rows.length < pageSize) return;
    }
  }

  /** How many votes were cast before `before` (by `created_at`). */
  async countVotesBefore(before: string): Promise<number> {
    const row = await this.db
      .selectFrom('votes')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('created_at', '<', before)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Who cast the votes of these duels (the visitor's and the address's hashes), a batch at a time. */
  async *voteOwnerPages(duelIds: readonly string[]): AsyncGenerator<{ duelId: string; visitorHash: string; clientHash: string | null }[]> {
    for (let start = 0; start < duelIds.length; start += OWNER_BATCH) {
      const rows = await this.db
        .selectFrom('votes')
        .innerJoin('duels', 'duels.id', 'votes.duel_id')
        .select(['votes.duel_id', 'duels.visitor_hash', 'votes.client_hash'])
        .where('votes.duel_id', 'in', duelIds.slice(start, start + OWNER_BATCH))
        .execute();
      yield rows.map((row) => ({ duelId: row.duel_id, visitorHash: row.visitor_hash, clientHash: row.client_hash }));
    }
  }

  /** Every vote's duel id alone, in pages (keyset on the primary key: no join, no sort). */
  async *duelIdPages(pageSize: number): AsyncGenerator<string[]> {
    let after: string | undefined;
    for (;;) {
      const rows = await this.db
        .selectFrom('votes')
        .select('duel_id')
        .$if(after !== undefined, (qb) => qb.where('duel_id', '>', after!))
        .orderBy('duel_id')
        .limit(pageSize)
        .execute();
      if (rows.length === 0) return;
      after = rows[rows.length - 1]!.duel_id;
      yield rows.map((row) => row.duel_id);
      if (rows.length < pageSize) return;
    }
  }

  /**
   * What changes whenever the votes as the integrity rules judge them change: their number, the
   * latest vote, review and annotation (each an index's last entry), and the ranking epoch.
   */
  async rankingChangeStamp(): Promise<string> {
    const latest = (table: 'votes' | 'vote_reviews' | 'conversation_annotations', column: 'created_at' | 'decided_at' | 'updated_at') =>
      this.db
        .selectFrom(table)
        .select((eb) => eb.fn.max<string | null>(sql.ref(column)).as('latest'))
        .executeTakeFirst()
        .then((row) => row?.latest ?? '');
    const parts = [
      await this.countVotes(),
      await latest('votes', 'created_at'),
      await latest('vote_reviews', 'decided_at'),
      await latest('conversation_annotations', 'updated_at'),
      await this.rankingEpoch(),
    ];
    return parts.join('|');
  }

  /** The ranking epoch: bumped by changes that rewrite votes already read (see {@link bumpRankingEpoch}). */
  async rankingEpoch(): Promise<number> {
    const row = await this.db.selectFrom('ranking_epoch').select('epoch').where('id', '=', 1).executeTakeFirst();
    return row?.epoch ?? 0;
  }

  /**
   * Says that votes already read changed otherwise than by a new vote, an annotation or a review
   * (a retention purge, an import): the live leaderboard reads every vote again. Call it in the
   * transaction of the change.
   */
  async bumpRankingEpoch(): Promise<void> {
    await this.db
      .updateTable('ranking_epoch')
      .set((eb) => ({ epoch: eb('epoch', '+', 1) }))
      .where('id', '=', 1)
      .execute();
  }

  /**
   * Records a reviewer's decision on a vote, with its line in the audit log of admin actions, in one
   * transaction; false when the duel has no vote.
   */
  async reviewVote(review: {
    duelId: string;
    decision: 'count' | 'exclude';
    reviewer: string;
    reason: string | null;
    at: string;
    auditId: string;
  }): Promise<boolean> {
    const write = async (db: Kysely<Database>) => {
      const vote = await db.selectFrom('votes').select('duel_id').where('duel_id', '=', review.duelId).executeTakeFirst();
      if (!vote) return false;
      const previous = await db.selectFrom('vote_reviews').select('decision').where('duel_id', '=', review.duelId).executeTakeFirst();
      await db
        .insertInto('vote_reviews')
        .values({ duel_id: review.duelId, decision: review.decision, reviewer: review.reviewer, decided_at: review.at })
        .onConflict((conflict) =>
          conflict.column('duel_id').doUpdateSet({ decision: review.decision, reviewer: review.reviewer, decided_at: review.at }),
        )
        .execute();
      await db
        .insertInto('review_audit_log')
        .values({
          id: review.auditId,
          duel_id: review.duelId,
          decision: `vote:${review.decision}`,
          previous_decision: previous ? `vote:${previous.decision}` : null,
          reason: review.reason,
          reviewer: review.reviewer,
          created_at: review.at,
        })
        .execute();
      return true;
    };
    return this.db.isTransaction ? write(this.db) : this.db.transaction().execute(write);
  }

  /** Every reaction with its duel's pairing, oldest duel first (for the optional reaction matches). */
  async listRankingReactions(): Promise<RankingReactionRecord[]> {
    const rows = await this.db
      .selectFrom('reactions')
      .innerJoin('duels', 'duels.id', 'reactions.duel_id')
      .leftJoin('conversation_annotations as a', 'a.duel_id', 'reactions.duel_id')
      .select([
        'a.languages',
        'a.message_languages',
        'a.categories',
        'a.capabilities',
        'reactions.duel_id',
        'reactions.turn',
        'reactions.side',
        'reactions.value',
        'duels.model_a',
        'duels.model_b',
        'duels.mode',
        'duels.locale',
        (eb) =>
          eb
            .exists(
              eb
                .selectFrom('turn_sides')
                .select('turn_sides.duel_id')
                .whereRef('turn_sides.duel_id', '=', 'reactions.duel_id')
                .where('turn_sides.identity_leak', '=', 1),
            )
            .as('leak'),
      ])
      .orderBy('duels.created_at')
      .orderBy('reactions.turn')
      .orderBy('reactions.side')
      .execute();
    return rows.map((row) => ({
      duelId: row.duel_id,
      turn: row.turn,
      side: row.side as 'a' | 'b',
      liked: row.value === 'like',
      modelA: row.model_a,
      modelB: row.model_b,
      mode: row.mode,
      locale: row.locale,
      identityLeak: Boolean(row.leak),
      languages: jsonList(row.languages),
      messageLanguages: row.message_languages === null ? null : (JSON.parse(row.message_languages) as TurnLanguages[]),
      // Capability labels ride as categories in their own namespace (docs/ranking.md#capability-views).
      categories: rankingCategories(jsonList(row.categories), jsonList(row.capabilities)),
    }));
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
    const row = await this.db
      .selectFrom('votes')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Stores a report unless its target (the conversation, or one answer) already has one. */
  insertReportOnce(report: ReportRecord): Promise<void> {
    return insertReportOnce(this.db, report);
  }
}
