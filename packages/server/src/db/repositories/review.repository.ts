import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
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
    t: Database['turns'];
  },
  'd' | 'a' | 'r' | 't'
>;

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

/** Review of flagged and reported conversations: decisions and their append-only audit log. */
export class ReviewRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** One page of a queue, newest conversation first. */
  async listQueue(queue: ReviewQueueName, limit: number, after: QueueCursor | undefined): Promise<ReviewItemRecord[]> {
    const rows = await this.db
      .selectFrom('duels as d')
      .leftJoin('conversation_annotations as a', 'a.duel_id', 'd.id')
      .leftJoin('review_decisions as r', 'r.duel_id', 'd.id')
      .leftJoin('turns as t', (join) => join.onRef('t.duel_id', '=', 'd.id').on('t.turn', '=', 1))
      .select([
        'd.id',
        'd.created_at',
        'd.source',
        'a.status as screening',
        'a.pii_rule_kinds',
        'a.pii_model_kinds',
        'r.decision',
        'r.reason',
        'r.reviewer',
        'r.decided_at',
        't.prompt',
      ])
      .where((eb) => inQueue(eb, queue, after))
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id', 'desc')
      .limit(limit)
      .execute();
    const reports = await this.reportsOf(rows.map((row) => row.id));
    return rows.map((row) => ({
      duelId: row.id,
      createdAt: row.created_at,
      source: row.source,
      screening: row.screening,
      ruleKinds: parseList(row.pii_rule_kinds),
      modelKinds: parseList(row.pii_model_kinds),
      reports: reports.get(row.id) ?? [],
      decision: row.decision
        ? {
            duelId: row.id,
            decision: row.decision as ReviewDecisionValue,
            reason: row.reason,
            reviewer: row.reviewer!,
            decidedAt: row.decided_at!,
          }
        : null,
      openingPrompt: row.prompt ?? '',
    }));
  }

  /** One conversation's review state, or undefined when the duel does not exist. */
  async findItem(duelId: string): Promise<ReviewItemRecord | undefined> {
    const row = await this.db
      .selectFrom('duels as d')
      .leftJoin('conversation_annotations as a', 'a.duel_id', 'd.id')
      .leftJoin('turns as t', (join) => join.onRef('t.duel_id', '=', 'd.id').on('t.turn', '=', 1))
      .select(['d.id', 'd.created_at', 'd.source', 'a.status as screening', 'a.pii_rule_kinds', 'a.pii_model_kinds', 't.prompt'])
      .where('d.id', '=', duelId)
      .executeTakeFirst();
    if (!row) return undefined;
    const [reports, decision] = await Promise.all([this.reportsOf([duelId]), this.findDecision(duelId)]);
    return {
      duelId,
      createdAt: row.created_at,
      source: row.source,
      screening: row.screening,
      ruleKinds: parseList(row.pii_rule_kinds),
      modelKinds: parseList(row.pii_model_kinds),
      reports: reports.get(duelId) ?? [],
      decision: decision ?? null,
      openingPrompt: row.prompt ?? '',
    };
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
