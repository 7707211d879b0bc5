import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../database';

export type ReviewDecisionValue = 'include' | 'exclude';
export type ReviewQueueName = 'pending' | 'flagged' | 'reported' | 'excluded' | 'included' | 'failed';

export interface ReviewDecisionRecord {
  duelId: string;
  decision: ReviewDecisionValue;
  reason: string | null;
  reviewer: string;
  decidedAt: string;
}

export interface AuditEntryRecord {
  id: string;
  duelId: string;
  decision: ReviewDecisionValue;
  previousDecision: ReviewDecisionValue | null;
  reason: string | null;
  reviewer: string;
  createdAt: string;
}

/** One report of a conversation in review: the whole conversation (turn and side null) or one answer. */
export interface ReviewReportRecord {
  category: string;
  reason: string;
  turn: number | null;
  side: string | null;
  createdAt: string;
}

/** A conversation in a review queue, with what put it there. */
export interface ReviewItemRecord {
  duelId: string;
  createdAt: string;
  source: string;
  screening: string | null;
  ruleKinds: string[];
  modelKinds: string[];
  reports: ReviewReportRecord[];
  decision: ReviewDecisionRecord | null;
  openingPrompt: string;
  languages: string[] | null;
  vote: { choice: string; createdAt: string } | null;
}

/** The queues' filters: a language of the conversation, a kind either layer found, created within [since, until). */
export interface ReviewFilterRecord {
  language?: string | undefined;
  rule?: string | undefined;
  createdSince?: string | undefined;
  createdUntil?: string | undefined;
}

/** Keyset position in a queue (newest first). */
export interface QueueCursor {
  createdAt: string;
  duelId: string;
}

const parseList = (text: string | null): string[] => (text ? (JSON.parse(text) as string[]) : []);

type QueueScope = ExpressionBuilder<
  Database & {
    d: Database['duels'];
    a: Database['conversation_annotations'];
    r: Database['review_decisions'];
  },
  'd' | 'a' | 'r'
>;

/**
 * The filters as SQL. A language or kind is matched inside the JSON list it is stored in, quotes
 * included (`"fr"`), which both stores read alike; the filters' own patterns (contract) allow
 * neither `%` nor `_`-free surprises: `_` is LIKE's one-character wildcard, so it is escaped.
 */
function matchesFilter(eb: QueueScope, filter: ReviewFilterRecord): Expression<SqlBool> {
  const clauses: Expression<SqlBool>[] = [];
  const inList = (value: string) => `%"${value.replaceAll('_', '\\_')}"%`;
  if (filter.language) clauses.push(eb('a.languages', 'like', sql<string>`${inList(filter.language)} escape '\\'`));
  if (filter.rule) {
    const pattern = sql<string>`${inList(filter.rule)} escape '\\'`;
    clauses.push(eb.or([eb('a.pii_rule_kinds', 'like', pattern), eb('a.pii_model_kinds', 'like', pattern)]));
  }
  if (filter.createdSince) clauses.push(eb('d.created_at', '>=', filter.createdSince));
  if (filter.createdUntil) clauses.push(eb('d.created_at', '<', filter.createdUntil));
  return eb.and(clauses);
}

/** What puts a conversation in each queue, and past the cursor (`d` the duel, `a` its annotation, `r` its decision). */
function inQueue(eb: QueueScope, queue: ReviewQueueName, after: QueueCursor | undefined): Expression<SqlBool> {
  const reported = eb.exists(eb.selectFrom('reports').select('reports.id').whereRef('reports.duel_id', '=', 'd.id'));
  const undecided = eb('r.duel_id', 'is', null);
  const flagged = eb('a.contains_pii', '=', 1);
  const byQueue: Record<ReviewQueueName, Expression<SqlBool>> = {
    pending: eb.and([undecided, eb.or([flagged, reported])]),
    flagged: eb.and([undecided, flagged]),
    reported: eb.and([undecided, reported]),
    excluded: eb('r.decision', '=', 'exclude'),
    included: eb('r.decision', '=', 'include'),
    failed: eb('a.status', '=', 'failed'),
  };
  const condition = byQueue[queue];
  if (!after) return condition;
  return eb.and([
    condition,
    eb.or([eb('d.created_at', '<', after.createdAt), eb.and([eb('d.created_at', '=', after.createdAt), eb('d.id', '<', after.duelId)])]),
  ]);
}

interface ItemRow {
  id: string;
  created_at: string;
  source: string;
  screening: string | null;
  pii_rule_kinds: string | null;
  pii_model_kinds: string | null;
  languages: string | null;
  prompt: string | null;
  vote_choice: string | null;
  voted_at: string | null;
}

function toItemRecord(row: ItemRow, reports: ReviewReportRecord[]): Omit<ReviewItemRecord, 'decision'> {
  return {
    duelId: row.id,
    createdAt: row.created_at,
    source: row.source,
    screening: row.screening,
    ruleKinds: parseList(row.pii_rule_kinds),
    modelKinds: parseList(row.pii_model_kinds),
    reports,
    openingPrompt: row.prompt ?? '',
    languages: row.languages ? (JSON.parse(row.languages) as string[]) : null,
    vote: row.vote_choice && row.voted_at ? { choice: row.vote_choice, createdAt: row.voted_at } : null,
  };
}

/** Review of flagged and reported conversations: decisions and their append-only audit log. */
export class ReviewRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** One page of a queue under the filters, newest conversation first. */
  async listQueue(
    queue: ReviewQueueName,
    limit: number,
    after: QueueCursor | undefined,
    filter: ReviewFilterRecord = {},
  ): Promise<ReviewItemRecord[]> {
    const rows = await this.itemRows()
      .leftJoin('review_decisions as r', 'r.duel_id', 'd.id')
      .select(['r.decision', 'r.reason', 'r.reviewer', 'r.decided_at'])
      .where((eb) => eb.and([inQueue(eb, queue, after), matchesFilter(eb, filter)]))
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id', 'desc')
      .limit(limit)
      .execute();
    const reports = await this.reportsOf(rows.map((row) => row.id));
    return rows.map((row) => ({
      ...toItemRecord(row, reports.get(row.id) ?? []),
      decision: row.decision
        ? {
            duelId: row.id,
            decision: row.decision as ReviewDecisionValue,
            reason: row.reason,
            reviewer: row.reviewer!,
            decidedAt: row.decided_at!,
          }
        : null,
    }));
  }

  /** How many conversations each queue holds under the filters (one count per queue). */
  async countQueues(queues: readonly ReviewQueueName[], filter: ReviewFilterRecord): Promise<Map<ReviewQueueName, number>> {
    const counted = await Promise.all(
      queues.map(async (queue) => {
        const row = await this.db
          .selectFrom('duels as d')
          .leftJoin('conversation_annotations as a', 'a.duel_id', 'd.id')
          .leftJoin('review_decisions as r', 'r.duel_id', 'd.id')
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .where((eb) => eb.and([inQueue(eb, queue, undefined), matchesFilter(eb, filter)]))
          .executeTakeFirstOrThrow();
        return [queue, Number(row.count)] as const;
      }),
    );
    return new Map(counted);
  }

  /** The kinds and languages of one queue's conversations under the filters (for counts per kind: one row per conversation). */
  async screeningsInQueue(
    queue: ReviewQueueName,
    filter: ReviewFilterRecord,
  ): Promise<{ ruleKinds: string[]; modelKinds: string[]; languages: string[] }[]> {
    const rows = await this.db
      .selectFrom('duels as d')
      .leftJoin('conversation_annotations as a', 'a.duel_id', 'd.id')
      .leftJoin('review_decisions as r', 'r.duel_id', 'd.id')
      .select(['a.pii_rule_kinds', 'a.pii_model_kinds', 'a.languages'])
      .where((eb) => eb.and([inQueue(eb, queue, undefined), matchesFilter(eb, filter)]))
      .execute();
    return rows.map((row) => ({
      ruleKinds: parseList(row.pii_rule_kinds),
      modelKinds: parseList(row.pii_model_kinds),
      languages: parseList(row.languages),
    }));
  }

  /** The duels of these ids that exist (a bulk decision refuses the whole batch when one is missing). */
  async existingDuels(duelIds: readonly string[]): Promise<Set<string>> {
    if (duelIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('duels')
      .select('id')
      .where('id', 'in', [...duelIds])
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  /** The current decisions of these conversations (absent: none). */
  async findDecisions(duelIds: readonly string[]): Promise<Map<string, ReviewDecisionValue>> {
    if (duelIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('review_decisions')
      .select(['duel_id', 'decision'])
      .where('duel_id', 'in', [...duelIds])
      .execute();
    return new Map(rows.map((row) => [row.duel_id, row.decision as ReviewDecisionValue]));
  }

  /** A queue item's columns: the duel, its screening, its first prompt and its vote. */
  private itemRows() {
    return this.db
      .selectFrom('duels as d')
      .leftJoin('conversation_annotations as a', 'a.duel_id', 'd.id')
      .leftJoin('turns as t', (join) => join.onRef('t.duel_id', '=', 'd.id').on('t.turn', '=', 1))
      .leftJoin('votes as v', 'v.duel_id', 'd.id')
      .select([
        'd.id',
        'd.created_at',
        'd.source',
        'a.status as screening',
        'a.pii_rule_kinds',
        'a.pii_model_kinds',
        'a.languages',
        't.prompt',
        'v.choice as vote_choice',
        'v.created_at as voted_at',
      ]);
  }

  /** One conversation's review state, or undefined when the duel does not exist. */
  async findItem(duelId: string): Promise<ReviewItemRecord | undefined> {
    const row = await this.itemRows().where('d.id', '=', duelId).executeTakeFirst();
    if (!row) return undefined;
    const [reports, decision] = await Promise.all([this.reportsOf([duelId]), this.findDecision(duelId)]);
    return { ...toItemRecord(row, reports.get(duelId) ?? []), decision: decision ?? null };
  }

  async findDecision(duelId: string): Promise<ReviewDecisionRecord | undefined> {
    const row = await this.db.selectFrom('review_decisions').selectAll().where('duel_id', '=', duelId).executeTakeFirst();
    return row
      ? {
          duelId: row.duel_id,
          decision: row.decision as ReviewDecisionValue,
          reason: row.reason,
          reviewer: row.reviewer,
          decidedAt: row.decided_at,
        }
      : undefined;
  }

  /** Records a decision (replacing the current one) and its audit entry; call inside a transaction. */
  async decide(decision: ReviewDecisionRecord, auditId: string, previous: ReviewDecisionValue | null): Promise<AuditEntryRecord> {
    const values = { decision: decision.decision, reason: decision.reason, reviewer: decision.reviewer, decided_at: decision.decidedAt };
    await this.db
      .insertInto('review_decisions')
      .values({ duel_id: decision.duelId, ...values })
      .onConflict((conflict) => conflict.column('duel_id').doUpdateSet(values))
      .execute();
    const entry: AuditEntryRecord = {
      id: auditId,
      duelId: decision.duelId,
      decision: decision.decision,
      previousDecision: previous,
      reason: decision.reason,
      reviewer: decision.reviewer,
      createdAt: decision.decidedAt,
    };
    await this.db
      .insertInto('review_audit_log')
      .values({
        id: entry.id,
        duel_id: entry.duelId,
        decision: entry.decision,
        previous_decision: entry.previousDecision,
        reason: entry.reason,
        reviewer: entry.reviewer,
        created_at: entry.createdAt,
      })
      .execute();
    return entry;
  }

  /** The audit log, newest first; of one conversation when `duelId` is given. */
  async listAudit(limit: number, duelId?: string): Promise<AuditEntryRecord[]> {
    let query = this.db.selectFrom('review_audit_log').selectAll();
    if (duelId !== undefined) query = query.where('duel_id', '=', duelId);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((row) => ({
      id: row.id,
      duelId: row.duel_id,
      decision: row.decision as ReviewDecisionValue,
      previousDecision: row.previous_decision as ReviewDecisionValue | null,
      reason: row.reason,
      reviewer: row.reviewer,
      createdAt: row.created_at,
    }));
  }

  private async reportsOf(duelIds: string[]): Promise<Map<string, ReviewReportRecord[]>> {
    const byDuel = new Map<string, ReviewReportRecord[]>();
    if (duelIds.length === 0) return byDuel;
    const rows = await this.db
      .selectFrom('reports')
      .select(['duel_id', 'category', 'reason', 'turn', 'side', 'created_at'])
      .where('duel_id', 'in', duelIds)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const row of rows) {
      const list = byDuel.get(row.duel_id) ?? [];
      list.push({ category: row.category, reason: row.reason, turn: row.turn, side: row.side, createdAt: row.created_at });
      byDuel.set(row.duel_id, list);
    }
    return byDuel;
  }
}
