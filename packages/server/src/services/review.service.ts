import { REVIEW_QUEUES, typedTextSchema } from '@agora/contract';
import type {
  AuditEntryBody,
  PiiSpan,
  ReviewBulkDecisionBody,
  ReviewBulkDecisionRequest,
  ReviewCountsBody,
  ReviewFilter,
  ReportCategory,
  Side,
  ReviewConversationBody,
  ReviewDecisionBody,
  ReviewDecisionRequest,
  ReviewItemBody,
  ReviewQueueBody,
  ReviewQueueQuery,
} from '@agora/contract';
import type {
  AuditEntryRecord,
  QueueCursor,
  ReviewDecisionRecord,
  ReviewFilterRecord,
  ReviewItemRecord,
} from '../db/repositories/review.repository';
import { screenText } from '../domain/privacy';
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
    const items = await this.store.reviews.listQueue(query.queue, query.limit + 1, after, this.filterOf(query));
    const page = items.slice(0, query.limit);
    const last = page.at(-1);
    return {
      queue: query.queue,
      items: page.map(toItemBody),
      next_cursor: items.length > query.limit && last ? encodeCursor({ createdAt: last.createdAt, duelId: last.duelId }) : null,
    };
  }

  /**
   * How many conversations each queue holds under the filters, and the kinds found in the pending
   * flagged ones: `pending`'s flagged conversations by kind are what `agora pii` finds, line by
   * line, in the same conversations (rules layer; review-counts test).
   */
  async counts(filter: ReviewFilter): Promise<ReviewCountsBody> {
    const record = this.filterOf(filter);
    const [queues, flagged, pending] = await Promise.all([
      this.store.reviews.countQueues(REVIEW_QUEUES, record),
      this.store.reviews.screeningsInQueue('flagged', record),
      this.store.reviews.screeningsInQueue('pending', { ...record, language: undefined }),
    ]);
    const kinds = new Map<string, { kind: string; layer: 'rules' | 'model'; conversations: number }>();
    const tally = (kind: string, layer: 'rules' | 'model') => {
      const key = `${layer}:${kind}`;
      const entry = kinds.get(key) ?? { kind, layer, conversations: 0 };
      entry.conversations += 1;
      kinds.set(key, entry);
    };
    for (const screening of flagged) {
      for (const kind of new Set(screening.ruleKinds)) tally(kind, 'rules');
      for (const kind of new Set(screening.modelKinds)) tally(kind, 'model');
    }
    return {
      queues: Object.fromEntries(REVIEW_QUEUES.map((queue) => [queue, queues.get(queue) ?? 0])) as ReviewCountsBody['queues'],
      kinds: [...kinds.values()].sort((left, right) => right.conversations - left.conversations || left.kind.localeCompare(right.kind)),
      languages: [...new Set(pending.flatMap((screening) => screening.languages))].sort(),
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
      return found ? { model: found.modelId, text: found.text, findings: spansOf(found.text) } : null;
    };
    return {
      ...toItemBody(item),
      turns: turns.map((turn) => ({
        turn: turn.turn,
        status: turn.status,
        prompt: turn.prompt,
        prompt_findings: spansOf(turn.prompt),
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

  /** Records a reviewer's decision (`reviewer`: who is signed in); the decision and its audit entry commit together. */
  async decide(
    duelId: string,
    request: Pick<ReviewDecisionRequest, 'decision' | 'reason'>,
    reviewer: string,
  ): Promise<{ decision: ReviewDecisionBody; audit: AuditEntryBody }> {
    const decision = this.decisionRecord(duelId, request, reviewer);
    const entry = await this.store.transaction(async (repositories) => {
      const duel = await repositories.duels.findById(duelId);
      if (!duel) throw new AppError('duel_not_found', `no duel ${duelId}`);
      const previous = await repositories.reviews.findDecision(duelId);
      return repositories.reviews.decide(decision, this.runtime.newId(), previous?.decision ?? null);
    });
    return { decision: toDecisionBody(decision), audit: toAuditBody(entry) };
  }

  /**
   * One decision for many conversations, in one transaction: each its decision and audit entry, or
   * none at all (an unknown id refuses the whole batch, so that a reviewer never wonders which half went).
   */
  async decideMany(request: ReviewBulkDecisionRequest, reviewer: string): Promise<ReviewBulkDecisionBody> {
    const entries = await this.store.transaction(async (repositories) => {
      const existing = await repositories.reviews.existingDuels(request.duel_ids);
      const missing = request.duel_ids.filter((id) => !existing.has(id));
      if (missing.length > 0) throw new AppError('duel_not_found', `no duel ${missing.slice(0, 5).join(', ')}`);
      const previous = await repositories.reviews.findDecisions(request.duel_ids);
      const written: AuditEntryRecord[] = [];
      for (const duelId of request.duel_ids)
        written.push(
          await repositories.reviews.decide(
            this.decisionRecord(duelId, request, reviewer),
            this.runtime.newId(),
            previous.get(duelId) ?? null,
          ),
        );
      return written;
    });
    return { audit: entries.map(toAuditBody) };
  }

  private decisionRecord(
    duelId: string,
    request: Pick<ReviewDecisionRequest, 'decision' | 'reason'>,
    reviewer: string,
  ): ReviewDecisionRecord {
    return { duelId, decision: request.decision, reason: request.reason || null, reviewer, decidedAt: this.runtime.now().toISOString() };
  }

  /** The filters with their ages turned into creation times (`min_age_days` old or more, `max_age_days` old or less). */
  private filterOf(filter: ReviewFilter): ReviewFilterRecord {
    const now = this.runtime.now().getTime();
    const daysAgo = (days: number | undefined) => (days === undefined ? undefined : new Date(now - days * 86_400_000).toISOString());
    return {
      language: filter.language,
      rule: filter.rule,
      createdSince: daysAgo(filter.max_age_days),
      createdUntil: daysAgo(filter.min_age_days),
    };
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
    languages: item.languages,
    vote: item.vote ? { choice: item.vote.choice as Choice, created_at: item.vote.createdAt } : null,
  };
}

type Choice = NonNullable<ReviewItemBody['vote']>['choice'];

/**
 * Where the rules find personal data in a text, as they read it now: the screening stores the
 * kinds it found, not where (a finding is recomputed in a millisecond; the rules are pure, so the
 * same text gives the same spans unless the rules changed since, and then these are the current rules').
 */
function spansOf(text: string): PiiSpan[] {
  return screenText(text).findings.map((finding) => ({ kind: finding.kind, start: finding.start, end: finding.end }));
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
