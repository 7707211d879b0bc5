import type { Kysely, Selectable } from 'kysely';
import type { Database, ReactionsTable, ReportsTable, VotesTable } from '../database';

// A visitor's own duels, read and erased by the hash of their cookie (GDPR articles 15 and 17:
// services/my-duels.service.ts, docs/privacy.md#your-duels). Only duels played here: imported ones
// carry another dataset's visitor ids.

export interface VisitorDuelRow {
  id: string;
  mode: string;
  status: string;
  locale: string | null;
  modelA: string;
  modelB: string;
  createdAt: string;
  updatedAt: string;
}

export interface VisitorTurnRow {
  duelId: string;
  turn: number;
  prompt: string;
  status: string;
  startedAt: string;
}

export interface VisitorSideRow {
  duelId: string;
  turn: number;
  side: string;
  text: string;
  reasoning: string | null;
}

export interface VisitorReactionRow {
  duelId: string;
  turn: number;
  side: string;
  value: string;
  tags: string[];
  comment: string | null;
  createdAt: string;
}

export interface VisitorVoteRow {
  duelId: string;
  choice: string;
  tagsA: string[];
  tagsB: string[];
  commentA: string | null;
  commentB: string | null;
  createdAt: string;
}

export interface VisitorReportRow {
  duelId: string;
  category: string;
  reason: string;
  turn: number | null;
  side: string | null;
  createdAt: string;
}

/** Everything the store keeps of one visitor's duels, duel by duel, newest first. */
export interface VisitorDuelRows {
  duels: VisitorDuelRow[];
  turns: VisitorTurnRow[];
  sides: VisitorSideRow[];
  reactions: VisitorReactionRow[];
  votes: VisitorVoteRow[];
  reports: VisitorReportRow[];
  /** When a reviewer last decided on each conversation (review_decisions), by duel id. */
  reviewedAt: Map<string, string>;
}

/** What an erasure did: the duels it erased, and those it left because a turn was still streaming. */
export interface ErasureOutcome {
  erased: string[];
  streaming: string[];
}

/** How long an erased vote's tombstone is kept: far longer than the leaderboards' full read (every 6 h) or any restart. */
const TOMBSTONE_DAYS = 7;

const parseTags = (json: string): string[] => JSON.parse(json) as string[];

const toReactionRow = (row: Selectable<ReactionsTable>): VisitorReactionRow => ({
  duelId: row.duel_id,
  turn: row.turn,
  side: row.side,
  value: row.value,
  tags: parseTags(row.tags),
  comment: row.comment,
  createdAt: row.created_at,
});

const toVoteRow = (row: Selectable<VotesTable>): VisitorVoteRow => ({
  duelId: row.duel_id,
  choice: row.choice,
  tagsA: parseTags(row.tags_a),
  tagsB: parseTags(row.tags_b),
  commentA: row.comment_a,
  commentB: row.comment_b,
  createdAt: row.created_at,
});

const toReportRow = (row: Selectable<ReportsTable>): VisitorReportRow => ({
  duelId: row.duel_id,
  category: row.category,
  reason: row.reason,
  turn: row.turn,
  side: row.side,
  createdAt: row.created_at,
});

export class VisitorDuelsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The arena duels of this visitor hash, with their turns, answers, reactions, vote, reports and review dates. */
  async listOfVisitor(visitorHash: string): Promise<VisitorDuelRows> {
    const duels = await this.db
      .selectFrom('duels')
      .select(['id', 'mode', 'status', 'locale', 'model_a', 'model_b', 'created_at', 'updated_at'])
      .where('visitor_hash', '=', visitorHash)
      .where('source', '=', 'arena')
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    const owned = this.db.selectFrom('duels').select('id').where('visitor_hash', '=', visitorHash).where('source', '=', 'arena');
    const [turns, sides, reactions, votes, reports, reviews] = await Promise.all([
      this.db.selectFrom('turns').select(['duel_id', 'turn', 'prompt', 'status', 'started_at']).where('duel_id', 'in', owned).execute(),
      this.db.selectFrom('turn_sides').select(['duel_id', 'turn', 'side', 'text', 'reasoning']).where('duel_id', 'in', owned).execute(),
      this.db.selectFrom('reactions').selectAll().where('duel_id', 'in', owned).execute(),
      this.db.selectFrom('votes').selectAll().where('duel_id', 'in', owned).execute(),
      this.db.selectFrom('reports').selectAll().where('duel_id', 'in', owned).execute(),
      this.db.selectFrom('review_decisions').select(['duel_id', 'decided_at']).where('duel_id', 'in', owned).execute(),
    ]);
    return {
      duels: duels.map((row) => ({
        id: row.id,
        mode: row.mode,
        status: row.status,
        locale: row.locale,
        modelA: row.model_a,
        modelB: row.model_b,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      })),
      turns: turns.map((row) => ({
        duelId: row.duel_id,
        turn: row.turn,
        prompt: row.prompt,
        status: row.status,
        startedAt: row.started_at,
      })),
      sides: sides.map((row) => ({ duelId: row.duel_id, turn: row.turn, side: row.side, text: row.text, reasoning: row.reasoning })),
      reactions: reactions.map(toReactionRow),
      votes: votes.map(toVoteRow),
      reports: reports.map(toReportRow),
      reviewedAt: new Map(reviews.map((row) => [row.duel_id, row.decided_at])),
    };
  }

  /**
   * The deployment's salt of exported ids, if an export or an optimised set was ever made (never
   * made here: an erasure has no published item to look for).
   */
  async exportSalt(): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('deployment_settings')
      .select('value')
      .where('key', '=', 'dataset_visitor_salt')
      .executeTakeFirst();
    return row?.value;
  }

  /** The ids of this visitor's arena duels among `duelIds` (all of them when `duelIds` is `all`), with whether a turn still streams. */
  async ownedDuels(visitorHash: string, duelIds: readonly string[] | 'all'): Promise<{ id: string; streaming: boolean }[]> {
    if (duelIds !== 'all' && duelIds.length === 0) return [];
    let query = this.db.selectFrom('duels').select(['id', 'status']).where('visitor_hash', '=', visitorHash).where('source', '=', 'arena');
    if (duelIds !== 'all') query = query.where('id', 'in', [...duelIds]);
    const rows = await query.execute();
    return rows.map((row) => ({ id: row.id, streaming: row.status === 'streaming' }));
  }

  /**
   * Deletes the rows of these duels, in the caller's transaction: the duel row takes its turns,
   * answers, failed calls, reactions, vote, reports, screening and review decision with it (foreign
   * keys `on delete cascade`); the rows without a foreign key go by hand (live frames, vote reviews,
   * the review audit log). `pairIds`, the duels' exported pair ids (an HMAC of the duel id, given
   * when an export was ever made), find what was made from them for publication: the optimised
   * set's items (their keys hold the pair id) and the preview rows the datasets page shows of the
   * last exports. A deleted vote leaves its duel id in `erased_votes`, which every instance's next
   * leaderboard refresh reads to drop it (bumping the ranking epoch instead made that refresh read every
   * vote again: one erasure a minute, within a visitor's limit, would have kept a 1 M-vote board
   * reading 19 s a minute). Tombstones older than {@link TOMBSTONE_DAYS} go: a refresh that old is a full read.
   */
  async eraseDuels(duelIds: readonly string[], pairIdsOf: readonly string[], erasedAt: string): Promise<string[]> {
    if (duelIds.length === 0) return [];
    // The gate, first: a duel whose follow-up started since the caller looked stays (its turn would write
    // to rows already gone). The no-op update locks the rows on PostgreSQL until the commit, so that no
    // turn starts on them meanwhile; SQLite's first write takes the database's write lock.
    const gated = await this.db
      .updateTable('duels')
      .set((eb) => ({ status: eb.ref('status') }))
      .where('id', 'in', [...duelIds])
      .where('status', '<>', 'streaming')
      .returning('id')
      .execute();
    const ids = gated.map((row) => row.id);
    if (ids.length === 0) return [];
    const pairIds = pairIdsOf.filter((_, index) => ids.includes(duelIds[index]!));
    const votes = await this.db.selectFrom('votes').select('duel_id').where('duel_id', 'in', ids).execute();
    await this.db.deleteFrom('live_frames').where('duel_id', 'in', ids).execute();
    await this.db.deleteFrom('vote_reviews').where('duel_id', 'in', ids).execute();
    await this.db.deleteFrom('review_audit_log').where('duel_id', 'in', ids).execute();
    for (const pairId of pairIds) await this.db.deleteFrom('maxx_items').where('item_key', 'like', `%|${pairId}|%`).execute();
    await this.scrubPreviews(pairIds);
    await this.withdrawDownloadsHolding(ids, erasedAt);
    await this.db.deleteFrom('duels').where('id', 'in', ids).execute();
    if (votes.length > 0)
      await this.db
        .insertInto('erased_votes')
        .values(votes.map((vote) => ({ duel_id: vote.duel_id, erased_at: erasedAt })))
        .onConflict((conflict) => conflict.column('duel_id').doNothing())
        .execute();
    const expired = new Date(Date.parse(erasedAt) - TOMBSTONE_DAYS * 86_400_000).toISOString();
    await this.db.deleteFrom('erased_votes').where('erased_at', '<', expired).execute();
    return ids;
  }

  /** Duels whose vote their visitor erased since `since` (by the erasure's time): the live leaderboards drop them. */
  async erasedVotesSince(since: string): Promise<string[]> {
    const rows = await this.db.selectFrom('erased_votes').select('duel_id').where('erased_at', '>=', since).execute();
    return rows.map((row) => row.duel_id);
  }

  /**
   * The exports built since the first of these duels began may hold them in their files: the arena
   * stops serving those files (the datasets page lists them without links) until the next export.
   */
  private async withdrawDownloadsHolding(ids: readonly string[], erasedAt: string): Promise<void> {
    const first = await this.db
      .selectFrom('duels')
      .select((eb) => eb.fn.min('created_at').as('created_at'))
      .where('id', 'in', [...ids])
      .executeTakeFirst();
    if (!first?.created_at) return;
    await this.db
      .updateTable('dataset_builds')
      .set({ downloads_withdrawn_at: erasedAt })
      .where('kind', '=', 'export')
      .where('created_at', '>=', first.created_at)
      .where('downloads_withdrawn_at', 'is', null)
      .execute();
  }

  /** Drops from the recorded exports' previews (`summary_json.preview[].rows`) every row that names one of these pair ids. */
  private async scrubPreviews(pairIds: readonly string[]): Promise<void> {
    if (pairIds.length === 0) return;
    const builds = await this.db.selectFrom('dataset_builds').select(['id', 'summary_json']).execute();
    for (const build of builds) {
      if (!pairIds.some((pairId) => build.summary_json.includes(pairId))) continue;
      const summary = JSON.parse(build.summary_json) as { preview?: { rows: unknown[] }[] };
      for (const preview of summary.preview ?? [])
        preview.rows = preview.rows.filter((row) => !pairIds.some((pairId) => JSON.stringify(row).includes(pairId)));
      await this.db
        .updateTable('dataset_builds')
        .set({ summary_json: JSON.stringify(summary) })
        .where('id', '=', build.id)
        .execute();
    }
  }
}
