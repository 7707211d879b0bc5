import type { PublishedExport, PublishedOptimisedSet } from '@agora/contract';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Database } from '../database';
import type { ExportableConversation, ExclusionCounts } from '../../domain/datasets/exportable';
import { type ConversationBatchRows, assembleConversations } from './exportable-conversations';
export type {
  ExportableConversation,
  ExportableAnswer,
  ExportableVote,
  ExportableReaction,
  ExclusionCounts,
  ExportableTurn,
  ExportableTurnVerdict,
} from '../../domain/datasets/exportable';

/** A publication: the last one of each kind is what the datasets page shows. */
export type DatasetBuild =
  | {
      id: string;
      kind: 'export';
      createdAt: string;
      /** A visitor erased a duel its files may hold: they are no longer served (docs/privacy.md#your-duels). */
      downloadsWithdrawnAt?: string | null;
      /**
       * `tiers` is absent from exports recorded before the public and gated folders (docs/decisions/0008);
       * `folder`, `files` and `preview` from those recorded before the datasets page offered downloads.
       */
      summary: Omit<PublishedExport, 'built_at' | 'tiers' | 'id' | 'files' | 'preview' | 'hub'> & {
        tiers?: PublishedExport['tiers'];
        /** The export's folder (absolute), where its `public/` folder is. */
        folder?: string;
        files?: Omit<PublishedExport['files'][number], 'url'>[];
        preview?: PublishedExport['preview'];
      };
    }
  | {
      id: string;
      kind: 'optimised';
      createdAt: string;
      summary: Omit<PublishedOptimisedSet, 'built_at'> & {
        runKey: string;
        /** What the card says beyond the outcomes (services/maxx). */ description?: unknown;
      };
    };

export interface ExportQuery {
  /** Cohorts the operator keeps out of every export. */
  privateCohorts: readonly string[];
  /** Conversations created at or after / strictly before these instants (ISO-8601). */
  from?: string | undefined;
  until?: string | undefined;
  batchSize: number;
}

type DuelsScope = ExpressionBuilder<
  Database & { a: Database['conversation_annotations']; r: Database['review_decisions'] },
  'duels' | 'a' | 'r'
>;

/**
 * THE privacy predicate of every export: screened (`done`), at least one screened complete turn,
 * and either a reviewer's `include` or — without a decision — no personal data found and no visitor
 * report; never a private cohort. Reviewer decisions override the screening both ways.
 * (`a` is the duel's annotation, `r` its review decision, left-joined.)
 */
function isExportable(eb: DuelsScope, privateCohorts: readonly string[]) {
  const clauses = [
    eb('a.status', '=', 'done'),
    eb.exists(
      eb
        .selectFrom('turns as t')
        .select('t.turn')
        .whereRef('t.duel_id', '=', 'duels.id')
        .where('t.status', '=', 'complete')
        .whereRef('t.turn', '<=', 'a.turns_annotated'),
    ),
    eb.or([
      eb('r.decision', '=', 'include'),
      eb.and([
        eb('r.decision', 'is', null),
        eb('a.contains_pii', '=', 0),
        eb.not(eb.exists(eb.selectFrom('reports as p').select('p.id').whereRef('p.duel_id', '=', 'duels.id'))),
      ]),
    ]),
  ];
  if (privateCohorts.length > 0) clauses.push(eb.or([eb('duels.cohort', 'is', null), eb('duels.cohort', 'not in', [...privateCohorts])]));
  return eb.and(clauses);
}

/**
 * Reads what exports publish. The only place that decides whether a conversation may leave the
 * store ({@link isExportable}); votes and reactions are read only for conversations that passed it.
 */
export class DatasetRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Exportable conversations in (created_at, id) order, in batches: keyset pagination, so memory
   * and the cost of each page stay bounded whatever the store's size, and the same store gives the
   * same order on every run (ids compare by the database's collation).
   */
  async *exportableConversations(query: ExportQuery): AsyncGenerator<ExportableConversation[]> {
    let after: { createdAt: string; id: string } | undefined;
    for (;;) {
      // A cross join (with the join condition in WHERE) makes SQLite walk duels in created_at order
      // and stop at the page's end; with an inner join it starts from the annotations' status index
      // and sorts the whole store for every page. PostgreSQL plans both the same way.
      const duels = await this.db
        .selectFrom('duels')
        .crossJoin('conversation_annotations as a')
        .leftJoin('review_decisions as r', 'r.duel_id', 'duels.id')
        .select([
          'duels.id',
          'duels.source',
          'duels.external_id',
          'duels.visitor_hash',
          'duels.mode',
          'duels.model_a',
          'duels.model_b',
          'duels.chosen_models',
          'duels.created_at',
          'duels.source_meta',
          'a.turns_annotated',
          'a.languages',
          'a.message_languages',
          'a.categories',
          'a.capabilities',
          'a.prompt_cluster',
          'a.keywords',
          'a.short_summary',
          'a.model_status',
          'a.pii_rule_kinds',
        ])
        .whereRef('a.duel_id', '=', 'duels.id')
        .where((eb) => isExportable(eb, query.privateCohorts))
        .$if(query.from !== undefined, (qb) => qb.where('duels.created_at', '>=', query.from!))
        .$if(query.until !== undefined, (qb) => qb.where('duels.created_at', '<', query.until!))
        .$if(after !== undefined, (qb) =>
          qb.where((eb) => eb(eb.refTuple('duels.created_at', 'duels.id'), '>', eb.tuple(after!.createdAt, after!.id))),
        )
        .orderBy('duels.created_at')
        .orderBy('duels.id')
        .limit(query.batchSize)
        .execute();
      if (duels.length === 0) return;
      const last = duels[duels.length - 1]!;
      after = { createdAt: last.created_at, id: last.id };
      yield assembleConversations(duels, await this.batchRows(duels.map((duel) => duel.id)));
      if (duels.length < query.batchSize) return;
    }
  }

  /** The sides, votes, reactions and turn verdicts of a batch of conversations, in four queries at once. */
  private async batchRows(ids: string[]): Promise<ConversationBatchRows> {
    const [sides, votes, reactions, verdicts] = await Promise.all([
      // No ORDER BY: sorting every batch costs more in the database than grouping here.
      this.db
        .selectFrom('turns as t')
        .innerJoin('turn_sides as s', (join) => join.onRef('s.duel_id', '=', 't.duel_id').onRef('s.turn', '=', 't.turn'))
        .select([
          't.duel_id',
          't.turn',
          't.prompt',
          's.side',
          's.model_id',
          's.text',
          's.reasoning',
          's.output_tokens',
          's.duration_ms',
          's.source_meta',
        ])
        .where('t.duel_id', 'in', ids)
        .where('t.status', '=', 'complete')
        .execute(),
      this.db
        .selectFrom('votes')
        .select(['duel_id', 'choice', 'tags_a', 'tags_b', 'comment_a', 'comment_b', 'created_at', 'source_meta'])
        .where('duel_id', 'in', ids)
        .execute(),
      this.db
        .selectFrom('reactions')
        .select(['duel_id', 'turn', 'side', 'model_id', 'value', 'tags', 'comment', 'created_at', 'source_meta'])
        .where('duel_id', 'in', ids)
        .orderBy('duel_id')
        .orderBy('turn')
        .orderBy('side')
        .execute(),
      this.db
        .selectFrom('turn_verdicts')
        .select(['duel_id', 'turn', 'choice', 'source_id', 'created_at'])
        .where('duel_id', 'in', ids)
        .orderBy('duel_id')
        .orderBy('turn')
        .execute(),
    ]);
    return { sides, votes, reactions, verdicts };
  }

  /**
   * Why conversations of the store stay out of exports, for the dataset card: each counted once,
   * under the first reason that applies. Reporting only; {@link isExportable} is what filters.
   */
  async exclusionCounts(privateCohorts: readonly string[]): Promise<ExclusionCounts> {
    const classified = this.db
      .selectFrom('duels')
      .leftJoin('conversation_annotations as a', 'a.duel_id', 'duels.id')
      .leftJoin('review_decisions as r', 'r.duel_id', 'duels.id')
      .select((eb) => [
        eb.fn.coalesce('a.status', sql.lit('none')).as('status'),
        eb.fn.coalesce('r.decision', sql.lit('none')).as('decision'),
        eb.fn.coalesce('a.contains_pii', sql.lit(-1)).as('pii'),
        eb
          .case()
          .when(eb.exists(eb.selectFrom('reports as p').select('p.id').whereRef('p.duel_id', '=', 'duels.id')))
          .then(1)
          .else(0)
          .end()
          .as('reported'),
        sql<number>`${
          privateCohorts.length > 0
            ? eb
                .case()
                .when('duels.cohort', 'in', [...privateCohorts])
                .then(1)
                .else(0)
                .end()
            : eb.val(0)
        }`.as('private'),
      ])
      .as('c');
    const rows = await this.db
      .selectFrom(classified)
      .select(['c.status', 'c.decision', 'c.pii', 'c.reported', 'c.private', (eb) => eb.fn.countAll<string | number>().as('count')])
      .groupBy(['c.status', 'c.decision', 'c.pii', 'c.reported', 'c.private'])
      .execute();
    const counts: ExclusionCounts = {
      conversations: 0,
      notScreened: 0,
      screeningFailed: 0,
      privateCohort: 0,
      reviewerExcluded: 0,
      reviewerIncluded: 0,
      flagged: 0,
      reportedNotReviewed: 0,
    };
    for (const row of rows) {
      const count = Number(row.count);
      counts.conversations += count;
      if (row.status === 'none' || row.status === 'pending') counts.notScreened += count;
      else if (row.status === 'failed') counts.screeningFailed += count;
      else if (Number(row.private) === 1) counts.privateCohort += count;
      else if (row.decision === 'exclude') counts.reviewerExcluded += count;
      else if (row.decision === 'include') counts.reviewerIncluded += count;
      else if (Number(row.pii) !== 0) counts.flagged += count;
      else if (Number(row.reported) === 1) counts.reportedNotReviewed += count;
    }
    return counts;
  }

  /** Records a publication (an export, an optimised set) with the figures of its card. */
  async recordBuild(build: DatasetBuild): Promise<void> {
    await this.db
      .insertInto('dataset_builds')
      .values({ id: build.id, kind: build.kind, created_at: build.createdAt, summary_json: JSON.stringify(build.summary) })
      .execute();
  }

  /** The last publication of a kind, or undefined when there was none. */
  async latestBuild<Kind extends DatasetBuild['kind']>(kind: Kind): Promise<Extract<DatasetBuild, { kind: Kind }> | undefined> {
    const row = await this.db
      .selectFrom('dataset_builds')
      .selectAll()
      .where('kind', '=', kind)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return (
      row &&
      ({
        id: row.id,
        kind,
        createdAt: row.created_at,
        downloadsWithdrawnAt: row.downloads_withdrawn_at,
        summary: JSON.parse(row.summary_json) as unknown,
      } as Extract<DatasetBuild, { kind: Kind }>)
    );
  }

  /**
   * The deployment's secret salt for exported visitor ids: 32 random bytes (hex) stored the first
   * time, the stored value afterwards. Safe when two exports start at once: the first write wins.
   */
  async visitorSalt(generate: () => string): Promise<string> {
    await this.db
      .insertInto('deployment_settings')
      .values({ key: 'dataset_visitor_salt', value: generate() })
      .onConflict((conflict) => conflict.column('key').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('deployment_settings')
      .select('value')
      .where('key', '=', 'dataset_visitor_salt')
      .executeTakeFirstOrThrow();
    return row.value;
  }
}
