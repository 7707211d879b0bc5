import type { Kysely } from 'kysely';
import type { Database } from '../database';
import { selectChunked } from './chunked-statements';

/** What an imported conversation's annotation holds, as stored (lists as JSON text), to tell whether it must be written. */
export interface StoredTopics {
  modelId: string | null;
  status: string;
  containsPii: number | null;
  turnsAnnotated: number;
  languages: string | null;
  categories: string | null;
  keywords: string | null;
  shortSummary: string | null;
  updatedAt: string;
}

/** The stored annotations of imported conversations, as `agora import comparia` compares them with a file's topics. */
export class ComparIaTopicsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The annotations of these duels, by duel id (written through the annotation repository). */
  async findTopics(duelIds: readonly string[]): Promise<Map<string, StoredTopics>> {
    const rows = await selectChunked(duelIds, (chunk) =>
      this.db
        .selectFrom('conversation_annotations')
        .select([
          'duel_id',
          'model_id',
          'status',
          'contains_pii',
          'turns_annotated',
          'languages',
          'categories',
          'keywords',
          'short_summary',
          'updated_at',
        ])
        .where('duel_id', 'in', chunk)
        .execute(),
    );
    return new Map(
      rows.map((row) => [
        row.duel_id,
        {
          modelId: row.model_id,
          status: row.status,
          containsPii: row.contains_pii,
          turnsAnnotated: row.turns_annotated,
          languages: row.languages,
          categories: row.categories,
          keywords: row.keywords,
          shortSummary: row.short_summary,
          updatedAt: row.updated_at,
        },
      ]),
    );
  }
}
