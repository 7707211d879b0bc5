import { type Kysely, type Selectable, sql } from 'kysely';
import type { ConversationAnnotationsTable, Database } from '../database';
import { PreparedQuery } from '../prepared-query';
import type { TurnLanguages } from '../../domain/language/turn-languages';
export type { TurnLanguages } from '../../domain/language/turn-languages';

export type AnnotationStatus = 'pending' | 'done' | 'failed';
/** The model layer (topics and personal data seen by an LLM). */
export type ModelLayerStatus = 'pending' | 'done' | 'not_configured' | 'failed';

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
  /** Capability labels (docs/ranking.md#capability-views); null before they were computed. */
  capabilities?: string[] | null;
  /** The near-duplicate cluster of its first prompt (docs/ranking.md#duplicate-prompts); '' when it has none, null before it was assigned. */
  promptCluster?: string | null;
  annotatedAt: string | null;
  updatedAt: string;
}

/** A conversation waiting for post-processing. */
export interface DueConversation {
  duelId: string;
  turnCount: number;
  /** Its annotation so far, if any (attempts carry over). */
  annotation: ConversationAnnotation | undefined;
  /** The duel's place in a sweep over every duel (set by the first sweep only). */
  sweepPosition?: SweepPosition;
}

export interface DueQuery {
  now: string;
  /** Unvoted duels untouched since this instant count as finished (the visitor left). */
  idleBefore: string;
  /** A model layer is configured now: conversations screened without one are screened again. */
  modelConfigured: boolean;
  /**
   * Incremental passes: unvoted duels are looked at only if they went idle after this instant
   * (everything else due comes from the queue); undefined = every duel is looked at.
   */
  idleSince?: string;
  /**
   * The first sweep (no `idleSince`) goes on after this duel, in (updated_at, id) order: each page
   * starts where the last one ended, instead of walking past every duel already annotated.
   */
  after?: SweepPosition | undefined;
  limit: number;
}

/** Where a sweep over every duel stands: the last duel it looked at. */
export interface SweepPosition {
  updatedAt: string;
  duelId: string;
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
    capabilities: json(row.capabilities),
    promptCluster: row.prompt_cluster,
    annotatedAt: row.annotated_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Queues conversations: a pending annotation due at once. One already annotated whole stays as it
 * is; one annotated before it grew is queued again; a pending (retry waiting) or failed one keeps
 * its state.
 */
const enqueueStatement = (db: Kysely<Database>, rows: { duel_id: string; at: string }[]) =>
  db
    .insertInto('conversation_annotations')
    .values(
      rows.map(({ duel_id, at }) => ({
        duel_id,
        status: 'pending',
        attempts: 0,
        next_attempt_at: at,
        turns_annotated: 0,
        model_status: 'pending',
        updated_at: at,
      })),
    )
    .onConflict((conflict) =>
      conflict
        .column('duel_id')
        .doUpdateSet((update) => ({
          status: 'pending',
          attempts: 0,
          last_error: null,
          next_attempt_at: update.ref('excluded.next_attempt_at'),
          updated_at: update.ref('excluded.updated_at'),
        }))
        .where('conversation_annotations.status', '=', 'done')
        .where('conversation_annotations.turns_annotated', '<', (eb) =>
          eb.selectFrom('duels').select('duels.turn_count').whereRef('duels.id', '=', 'conversation_annotations.duel_id'),
        ),
    );
// A vote queues its duel: compiled once, as the rest of the vote's statements (see PreparedQuery).
const enqueueOneQuery = new PreparedQuery((db, values: { duelId: string; at: string }) =>
  enqueueStatement(db, [{ duel_id: values.duelId, at: values.at }]),
);

/** A due conversation from a duel and its annotation, if any (a left join). */
function toDueOfDuel(
  row: { duel_id_of_duel: string; turn_count: number } & {
    [K in keyof Selectable<ConversationAnnotationsTable>]: Selectable<ConversationAnnotationsTable>[K] | null;
  },
): DueConversation {
  return {
    duelId: row.duel_id_of_duel,
    turnCount: row.turn_count,
    annotation: row.duel_id === null ? undefined : toAnnotation(row as Selectable<ConversationAnnotationsTable>),
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
    await this.upsert(annotations, false);
  }

  /**
   * Stores the results of a post-processing pass, except over a row whose conversation has grown
   * since the pass read it (its `turnsAnnotated` is not the duel's turn count any more): that row
   * was queued again meanwhile (a follow-up, then a vote or a failed turn) and keeps its queue
   * state, so the next pass annotates the whole conversation instead of this pass marking it done.
   */
  async saveAnnotated(annotations: readonly ConversationAnnotation[]): Promise<void> {
    await this.upsert(annotations, true);
  }

  private async upsert(annotations: readonly ConversationAnnotation[], unlessGrown: boolean): Promise<void> {
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
      capabilities: text(annotation.capabilities),
      prompt_cluster: annotation.promptCluster ?? null,
      annotated_at: annotation.annotatedAt,
      updated_at: annotation.updatedAt,
    }));
    const { duel_id: _key, ...updated } = rows[0]!;
    // Pages of rows keep each statement under SQLite's and PostgreSQL's limits on bound parameters.
    for (let start = 0; start < rows.length; start += 500) {
      await this.db
        .insertInto('conversation_annotations')
        .values(rows.slice(start, start + 500))
        .onConflict((conflict) => {
          const replace = conflict
            .column('duel_id')
            .doUpdateSet((update) =>
              Object.fromEntries(Object.keys(updated).map((column) => [column, update.ref(`excluded.${column as keyof typeof updated}`)])),
            );
          return unlessGrown
            ? replace.where((eb) =>
                eb(
                  eb.selectFrom('duels').select('duels.turn_count').whereRef('duels.id', '=', 'conversation_annotations.duel_id'),
                  '=',
                  eb.ref('excluded.turns_annotated'),
                ),
              )
            : replace;
        })
        .execute();
    }
  }

  /**
   * Queues finished conversations for post-processing, in the transaction that finished them (a
   * vote, a failed turn), so that the job finds them through the queue's index, whatever the
   * clocks of the instances that wrote them, rather than by scanning every duel changed lately.
   */
  async enqueue(duelIds: readonly string[], at: string): Promise<void> {
    if (duelIds.length === 1) {
      await enqueueOneQuery.execute(this.db, { duelId: duelIds[0]!, at });
      return;
    }
    for (let start = 0; start < duelIds.length; start += 500) {
      await enqueueStatement(
        this.db,
        duelIds.slice(start, start + 500).map((duel_id) => ({ duel_id, at })),
      ).execute();
    }
  }

  async find(duelId: string): Promise<ConversationAnnotation | undefined> {
    const row = await this.db.selectFrom('conversation_annotations').selectAll().where('duel_id', '=', duelId).executeTakeFirst();
    return row ? toAnnotation(row) : undefined;
  }

  /**
   * Finished conversations that need (re-)annotation. Without `idleSince` (the first pass of a
   * server, `agora postprocess`), every duel is looked at: never annotated and voted, failed or
   * idle; grown by a follow-up since; pending with a retry due; screened without the model layer
   * that is configured now. With `idleSince` (the passes after), each case comes from an index
   * whose range holds only what is due: the queue ({@link enqueue}: votes, failed turns, retries),
   * the model backfill, and the unvoted duels that went idle since the last pass.
   */
  async listDue(query: DueQuery): Promise<DueConversation[]> {
    if (query.idleSince === undefined) return this.listEveryDue(query);
    // The three sets are disjoint (pending; done without the model layer; unannotated or grown and
    // not in the second set), so that a page is full exactly when some set had more.
    const due = await this.listQueued(query, query.limit);
    if (due.length < query.limit && query.modelConfigured) due.push(...(await this.listScreenedWithoutModel(query.limit - due.length)));
    if (due.length < query.limit) due.push(...(await this.listIdle(query, query.idleSince, query.limit - due.length)));
    return due;
  }

  private async listEveryDue(query: DueQuery): Promise<DueConversation[]> {
    const rows = await this.everyDue(query)
      .select(['duels.id as duel_id_of_duel', 'duels.turn_count', 'duels.updated_at as duel_updated_at'])
      .selectAll('a')
      .$if(query.after !== undefined, (qb) =>
        qb.where((eb) => eb(eb.refTuple('duels.updated_at', 'duels.id'), '>', eb.tuple(query.after!.updatedAt, query.after!.duelId))),
      )
      .orderBy('duels.updated_at')
      .orderBy('duels.id')
      .limit(query.limit)
      .execute();
    return rows.map((row) => ({ ...toDueOfDuel(row), sweepPosition: { updatedAt: row.duel_updated_at, duelId: row.duel_id_of_duel } }));
  }

  /** How many conversations are due now (what a backfill has ahead of it, for its progress). */
  async countDue(query: Omit<DueQuery, 'limit' | 'idleSince' | 'after'>): Promise<number> {
    const row = await this.everyDue(query)
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Duels whose conversation needs the pipeline: never annotated, grown, retry due, or screened before a model was configured. */
  private everyDue(query: Pick<DueQuery, 'now' | 'idleBefore' | 'modelConfigured'>) {
    return this.db
      .selectFrom('duels')
      .leftJoin('conversation_annotations as a', 'a.duel_id', 'duels.id')
      .where('duels.status', '!=', 'streaming')
      .where((eb) => eb.or([eb('duels.status', 'in', ['voted', 'failed']), eb('duels.updated_at', '<=', query.idleBefore)]))
      .where((eb) =>
        eb.or([
          eb('a.duel_id', 'is', null),
          eb.and([eb('a.status', '=', 'done'), eb('a.turns_annotated', '<', eb.ref('duels.turn_count'))]),
          eb.and([eb('a.status', '=', 'pending'), eb.or([eb('a.next_attempt_at', 'is', null), eb('a.next_attempt_at', '<=', query.now)])]),
          ...(query.modelConfigured ? [eb.and([eb('a.model_status', '=', 'not_configured'), eb('a.status', '=', 'done')])] : []),
          // Annotated before capability labels existed: labelled by the first sweep (a server's first pass, `agora postprocess`).
          eb.and([eb('a.status', '=', 'done'), eb('a.capabilities', 'is', null)]),
          // Likewise before prompt clusters ('' once looked at and none: a prompt of punctuation only, no complete turn).
          eb.and([eb('a.status', '=', 'done'), eb('a.prompt_cluster', 'is', null)]),
        ]),
      );
  }

  /** The queue: pending annotations whose (first or next) attempt is due, oldest first, in the index's order. */
  private async listQueued(query: DueQuery, limit: number): Promise<DueConversation[]> {
    const rows = await this.annotationsOfFinishedDuels()
      .where('a.status', '=', 'pending')
      .where('a.next_attempt_at', '<=', query.now)
      .orderBy('a.next_attempt_at')
      .orderBy('a.duel_id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ duelId: row.duel_id, turnCount: row.turn_count, annotation: toAnnotation(row) }));
  }

  /** Conversations screened while no model layer was configured (there is one now). */
  private async listScreenedWithoutModel(limit: number): Promise<DueConversation[]> {
    const rows = await this.annotationsOfFinishedDuels()
      .where('a.model_status', '=', 'not_configured')
      .where('a.status', '=', 'done')
      .orderBy('a.updated_at')
      .orderBy('a.duel_id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ duelId: row.duel_id, turnCount: row.turn_count, annotation: toAnnotation(row) }));
  }

  /** Annotations with their duel's turn count, unless a turn is under way (its end brings the duel back). */
  private annotationsOfFinishedDuels() {
    return this.db
      .selectFrom('conversation_annotations as a')
      .innerJoin('duels', 'duels.id', 'a.duel_id')
      .select(['duels.turn_count'])
      .selectAll('a')
      .where('duels.status', '!=', 'streaming');
  }

  /** Unvoted duels last changed in (`since`, `idleBefore`]: the visitor left them, unannotated or grown since. */
  private async listIdle(query: DueQuery, since: string, limit: number): Promise<DueConversation[]> {
    const rows = await this.db
      .selectFrom('duels')
      .leftJoin('conversation_annotations as a', 'a.duel_id', 'duels.id')
      .select(['duels.id as duel_id_of_duel', 'duels.turn_count'])
      .selectAll('a')
      .where('duels.updated_at', '>', since)
      .where('duels.updated_at', '<=', query.idleBefore)
      .where('duels.status', '=', 'ready')
      .where((eb) =>
        eb.or([
          eb('a.duel_id', 'is', null),
          eb.and([
            eb('a.status', '=', 'done'),
            eb('a.turns_annotated', '<', eb.ref('duels.turn_count')),
            // Those come with the model backfill.
            ...(query.modelConfigured ? [eb('a.model_status', '!=', 'not_configured')] : []),
          ]),
        ]),
      )
      .orderBy('duels.updated_at')
      .orderBy('duels.id')
      .limit(limit)
      .execute();
    return rows.map(toDueOfDuel);
  }

  /** Puts failed annotations back in the queue with fresh attempts (`agora postprocess --retry-failed`). */
  async requeueFailed(now: string): Promise<number> {
    const result = await this.db
      .updateTable('conversation_annotations')
      .set({ status: 'pending', attempts: 0, next_attempt_at: now, updated_at: now })
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
