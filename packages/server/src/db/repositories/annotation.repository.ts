import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import type { ConversationAnnotationsTable, Database } from '../database';

export type AnnotationStatus = 'pending' | 'done' | 'failed';
/** The model layer (topics and personal data seen by an LLM). */
export type ModelLayerStatus = 'pending' | 'done' | 'not_configured' | 'failed';

/** The language of each message of one complete turn. */
export interface TurnLanguages {
  prompt: string;
  a: string;
  b: string;
}

/** Post-processing results of one conversation (a duel), as services see them. */
export interface ConversationAnnotation {
  duelId: string;
  status: AnnotationStatus;
  attempts: number;
  lastError: string | null;
  /** When a pending annotation may be tried (again); also a lease while one worker holds it. */
  nextAttemptAt: string | null;
  turnsAnnotated: number;
  /** Most frequent first; empty when nothing could be told. */
  languages: string[] | null;
  messageLanguages: TurnLanguages[] | null;
  piiRuleKinds: string[] | null;
  piiModelKinds: string[] | null;
  containsPii: boolean | null;
  modelStatus: ModelLayerStatus;
  modelId: string | null;
  categories: string[] | null;
  keywords: string[] | null;
  shortSummary: string | null;
  annotatedAt: string | null;
  updatedAt: string;
}

/** A conversation waiting for post-processing. */
export interface DueConversation {
  duelId: string;
  turnCount: number;
  /** Its annotation so far, if any (attempts carry over). */
  annotation: ConversationAnnotation | undefined;
}

export interface DueQuery {
  now: string;
  /** Unvoted duels untouched since this instant count as finished (the visitor left). */
  idleBefore: string;
  /** A model layer is configured now: conversations screened without one are screened again. */
  modelConfigured: boolean;
  /** Look only at duels changed after this instant (incremental passes); undefined = every duel. */
  updatedSince?: string;
  limit: number;
}

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));
const text = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

function toAnnotation(row: Selectable<ConversationAnnotationsTable>): ConversationAnnotation {
  return {
    duelId: row.duel_id,
    status: row.status as AnnotationStatus,
    attempts: row.attempts,
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at,
    turnsAnnotated: row.turns_annotated,
    languages: json(row.languages),
    messageLanguages: json(row.message_languages),
    piiRuleKinds: json(row.pii_rule_kinds),
    piiModelKinds: json(row.pii_model_kinds),
    containsPii: row.contains_pii === null ? null : row.contains_pii === 1,
    modelStatus: row.model_status as ModelLayerStatus,
    modelId: row.model_id,
    categories: json(row.categories),
    keywords: json(row.keywords),
    shortSummary: row.short_summary,
    annotatedAt: row.annotated_at,
    updatedAt: row.updated_at,
  };
}

/** Language, topics and personal-data screening of conversations. */
export class AnnotationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts or replaces the annotation of one conversation. */
  async save(annotation: ConversationAnnotation): Promise<void> {
    await this.saveMany([annotation]);
  }

  /** Stores annotations (new or replacing a duel's previous one) in one statement. */
  async saveMany(annotations: readonly ConversationAnnotation[]): Promise<void> {
    if (annotations.length === 0) return;
    const rows = annotations.map((annotation) => ({
      duel_id: annotation.duelId,
      status: annotation.status,
      attempts: annotation.attempts,
      last_error: annotation.lastError,
      next_attempt_at: annotation.nextAttemptAt,
      turns_annotated: annotation.turnsAnnotated,
      languages: text(annotation.languages),
      message_languages: text(annotation.messageLanguages),
      pii_rule_kinds: text(annotation.piiRuleKinds),
      pii_model_kinds: text(annotation.piiModelKinds),
      contains_pii: annotation.containsPii === null ? null : annotation.containsPii ? 1 : 0,
      model_status: annotation.modelStatus,
      model_id: annotation.modelId,
      categories: text(annotation.categories),
      keywords: text(annotation.keywords),
      short_summary: annotation.shortSummary,
      annotated_at: annotation.annotatedAt,
      updated_at: annotation.updatedAt,
    }));
    const { duel_id: _key, ...updated } = rows[0]!;
    // Pages of rows keep each statement under SQLite's and PostgreSQL's limits on bound parameters.
    for (let start = 0; start < rows.length; start += 500) {
      await this.db
        .insertInto('conversation_annotations')
        .values(rows.slice(start, start + 500))
        .onConflict((conflict) =>
          conflict.column('duel_id').doUpdateSet((update) => Object.fromEntries(Object.keys(updated).map((column) => [column, update.ref(`excluded.${column as keyof typeof updated}`)]))),
        )
        .execute();
    }
  }

  async find(duelId: string): Promise<ConversationAnnotation | undefined> {
    const row = await this.db.selectFrom('conversation_annotations').selectAll().where('duel_id', '=', duelId).executeTakeFirst();
    return row ? toAnnotation(row) : undefined;
  }

  /**
   * Finished conversations that need (re-)annotation: never annotated, grown by a follow-up since,
   * pending with a retry due, or screened without the model layer that is configured now. A duel
   * still streaming is never due; an unvoted one is due once idle. With `updatedSince`, only duels
   * changed after it are looked at for the first two cases (an index range, not a scan of every
   * conversation); retries and the model backfill come from their own indexes.
   */
  async listDue(query: DueQuery): Promise<DueConversation[]> {
    const changed = await this.db
      .selectFrom('duels')
      .leftJoin('conversation_annotations as a', 'a.duel_id', 'duels.id')
      .select(['duels.id as duel_id_of_duel', 'duels.turn_count'])
      .selectAll('a')
      .$if(query.updatedSince !== undefined, (builder) => builder.where('duels.updated_at', '>', query.updatedSince!))
      .where('duels.status', '!=', 'streaming')
      .where((eb) => eb.or([eb('duels.status', 'in', ['voted', 'failed']), eb('duels.updated_at', '<=', query.idleBefore)]))
      .where((eb) =>
        eb.or([
          eb('a.duel_id', 'is', null),
          eb.and([eb('a.status', '=', 'done'), eb('a.turns_annotated', '<', eb.ref('duels.turn_count'))]),
          // Without a range the retries and the backfill are found here too, in the same order.
          ...(query.updatedSince === undefined ? this.retryOrBackfill(eb, query) : []),
        ]),
      )
      .orderBy('duels.updated_at')
      .orderBy('duels.id')
      .limit(query.limit)
      .execute();
    const due = changed.map((row) => ({
      duelId: row.duel_id_of_duel,
      turnCount: row.turn_count,
      annotation: row.duel_id === null ? undefined : toAnnotation(row as Selectable<ConversationAnnotationsTable>),
    }));
    if (query.updatedSince === undefined || due.length >= query.limit) return due;
    const seen = new Set(due.map((conversation) => conversation.duelId));
    const annotated = await this.db
      .selectFrom('conversation_annotations as a')
      .innerJoin('duels', 'duels.id', 'a.duel_id')
      .select(['duels.turn_count'])
      .selectAll('a')
      .where('duels.status', '!=', 'streaming')
      .where((eb) => eb.or(this.retryOrBackfill(eb, query)))
      .orderBy('a.updated_at')
      .orderBy('a.duel_id')
      .limit(query.limit - due.length)
      .execute();
    for (const row of annotated) {
      if (!seen.has(row.duel_id)) due.push({ duelId: row.duel_id, turnCount: row.turn_count, annotation: toAnnotation(row) });
    }
    return due;
  }

  /** Pending annotations whose retry is due, and (with a model configured) those screened without one. */
  private retryOrBackfill(eb: ExpressionBuilder<Database & { a: ConversationAnnotationsTable }, 'a'>, query: DueQuery) {
    return [
      eb.and([eb('a.status', '=', 'pending'), eb.or([eb('a.next_attempt_at', 'is', null), eb('a.next_attempt_at', '<=', query.now)])]),
      ...(query.modelConfigured ? [eb.and([eb('a.model_status', '=', 'not_configured'), eb('a.status', '=', 'done')])] : []),
    ];
  }

  /** Puts failed annotations back in the queue with fresh attempts (`agora postprocess --retry-failed`). */
  async requeueFailed(now: string): Promise<number> {
    const result = await this.db
      .updateTable('conversation_annotations')
      .set({ status: 'pending', attempts: 0, next_attempt_at: null, updated_at: now })
      .where('status', '=', 'failed')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Counts per status, for `agora postprocess` and /metrics. */
  async countByStatus(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('conversation_annotations')
      .select(['status', 'model_status', sql<number>`count(*)`.as('count')])
      .groupBy(['status', 'model_status'])
      .execute();
    const counts: Record<string, number> = {};
    for (const row of rows) {
      counts[row.status] = (counts[row.status] ?? 0) + Number(row.count);
      counts[`model_${row.model_status}`] = (counts[`model_${row.model_status}`] ?? 0) + Number(row.count);
    }
    return counts;
  }
}
