import { typedTextSchema } from '@agora/contract';
import type {
  AuditEntryBody,
  ReportCategory,
  Side,
  ReviewConversationBody,
  ReviewDecisionBody,
  ReviewDecisionRequest,
  ReviewItemBody,
  ReviewQueueBody,
  ReviewQueueQuery,
} from '@agora/contract';
import type { AuditEntryRecord, QueueCursor, ReviewDecisionRecord, ReviewItemRecord } from '../db/repositories/review.repository';
import type { Store } from '../db/unit-of-work';
import { AppError } from './app-error';
import type { Runtime } from './ports/runtime';

const OPENING_CHARS = 280;

/**
 * Review of conversations the screening flagged or visitors reported. A decision overrides the
 * screening for the open datasets (`include` publishes a false positive, `exclude` withholds it);
 * a reported conversation stays out of every export until someone decides. Every decision is
 * appended to the audit log with the one it replaced.
 */
export class ReviewService {
  constructor(
    private readonly store: Store,
    private readonly runtime: Runtime,
  ) {}

  async queue(query: ReviewQueueQuery): Promise<ReviewQueueBody> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    // One more than asked tells whether there is a next page without counting.
    const items = await this.store.reviews.listQueue(query.queue, query.limit + 1, after);
    const page = items.slice(0, query.limit);
    const last = page.at(-1);
    return {
      queue: query.queue,
      items: page.map(toItemBody),
      next_cursor: items.length > query.limit && last ? encodeCursor({ createdAt: last.createdAt, duelId: last.duelId }) : null,
    };
  }

  async conversation(duelId: string): Promise<ReviewConversationBody> {
    const item = await this.store.reviews.findItem(duelId);
    if (!item) throw new AppError('duel_not_found', `no duel ${duelId}`);
    const [turns, sides, annotation, audit] = await Promise.all([
      this.store.duels.listTurns(duelId),
      this.store.duels.listSides(duelId),
      this.store.annotations.find(duelId),
      this.store.reviews.listAudit(1000, duelId),
    ]);
    const sideOf = (turn: number, side: 'a' | 'b') => {
      const found = sides.find((candidate) => candidate.turn === turn && candidate.side === side);
      return found ? { model: found.modelId, text: found.text } : null;
    };
    return {
      ...toItemBody(item),
      turns: turns.map((turn) => ({
        turn: turn.turn,
        status: turn.status,
        prompt: turn.prompt,
        a: sideOf(turn.turn, 'a'),
        b: sideOf(turn.turn, 'b'),
      })),
      annotation: annotation
        ? {
            languages: annotation.languages,
            categories: annotation.categories,
            keywords: annotation.keywords,
            short_summary: annotation.shortSummary,
            model_status: annotation.modelStatus,
            last_error: annotation.lastError,
          }
        : null,
      audit: audit.map(toAuditBody),
    };
  }

  /** Records a reviewer's decision; the decision and its audit entry commit together. */
  async decide(duelId: string, request: ReviewDecisionRequest): Promise<{ decision: ReviewDecisionBody; audit: AuditEntryBody }> {
    const decidedAt = this.runtime.now().toISOString();
    const decision: ReviewDecisionRecord = {
      duelId,
      decision: request.decision,
      reason: request.reason || null,
      reviewer: request.reviewer,
      decidedAt,
    };
    const entry = await this.store.transaction(async (repositories) => {
      const duel = await repositories.duels.findById(duelId);
      if (!duel) throw new AppError('duel_not_found', `no duel ${duelId}`);
      const previous = await repositories.reviews.findDecision(duelId);
      return repositories.reviews.decide(decision, this.runtime.newId(), previous?.decision ?? null);
    });
    return { decision: toDecisionBody(decision), audit: toAuditBody(entry) };
  }

  async auditLog(limit: number, duelId?: string): Promise<{ entries: AuditEntryBody[] }> {
    return { entries: (await this.store.reviews.listAudit(limit, duelId)).map(toAuditBody) };
  }
}

function toDecisionBody(decision: ReviewDecisionRecord): ReviewDecisionBody {
  return { decision: decision.decision, reason: decision.reason, reviewer: decision.reviewer, decided_at: decision.decidedAt };
}

function toAuditBody(entry: AuditEntryRecord): AuditEntryBody {
  return {
    id: entry.id,
    duel_id: entry.duelId,
    decision: entry.decision,
    previous_decision: entry.previousDecision,
    reason: entry.reason,
    reviewer: entry.reviewer,
    created_at: entry.createdAt,
  };
}

function toItemBody(item: ReviewItemRecord): ReviewItemBody {
  return {
    duel_id: item.duelId,
    created_at: item.createdAt,
    source: item.source,
    screening: item.screening,
    flagged_by: { rules: item.ruleKinds, model: item.modelKinds },
    reports: item.reports.map((report) => ({
      category: report.category as ReportCategory,
      reason: report.reason,
      turn: report.turn,
      side: report.side as Side | null,
      created_at: report.createdAt,
    })),
    decision: item.decision ? toDecisionBody(item.decision) : null,
    opening: [...item.openingPrompt].slice(0, OPENING_CHARS).join(''),
  };
}

function encodeCursor(cursor: QueueCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.duelId])).toString('base64url');
}

function decodeCursor(text: string): QueueCursor {
  try {
    const [createdAt, duelId] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    // Whatever a client made of it must still be text the store can compare (no NUL: PostgreSQL refuses it).
    if (typeof createdAt === 'string' && typeof duelId === 'string' && typedTextSchema.safeParse(createdAt + duelId).success)
      return { createdAt, duelId };
  } catch {
    // fall through to the error below
  }
  throw new AppError('invalid_request', 'cursor: not a cursor this API returned', {
    issues: [{ path: ['cursor'], message: 'not a cursor this API returned' }],
  });
}
