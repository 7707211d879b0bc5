import { type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../database';
import type { ModelTallies } from '../../domain/ranking/model-tallies';

/** Tags ticked on one model's answers and its reactions, counted per tag; JSON lists decoded here. */
export interface ModelTagCounts {
  /** Answers of the model that carried at least one vote tag. */
  taggedAnswers: number;
  voteTags: Map<string, number>;
  reactions: { total: number; likes: number; dislikes: number; tags: Map<string, number> };
}

/**
 * What a model sheet reads of the store besides the leaderboard's tallies: the tags voters ticked on
 * the model's answers and its reactions. Each query reads one model's rows through the partial
 * indexes of migration 2026_12_09_104000 (tagged votes per side, reactions per model).
 */
export class ModelProfileRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * `ownViewModes`: modes whose arena votes the main board leaves out (leaderboard-views.ts), left
   * out here too; votes the store marks as not counted (identity leak, served-model mismatch) and
   * votes a reviewer excluded likewise, and the votes of the `flagged` duels (the integrity rules').
   */
  async tagCounts(
    model: string,
    ownViewModes: readonly string[],
    flagged: Pick<ReadonlySet<string>, 'has'> = new Set(),
  ): Promise<ModelTagCounts> {
    const counted = (rows: { duel_id: string; tags: string }[]) => rows.filter((row) => !flagged.has(row.duel_id)).map((row) => row.tags);
    const [sideA, sideB, reactions] = await Promise.all([
      this.taggedVotes(model, 'a', ownViewModes).then(counted),
      this.taggedVotes(model, 'b', ownViewModes).then(counted),
      this.db.selectFrom('reactions').select(['value', 'tags']).where('model_id', '=', model).execute(),
    ]);
    const voteTags = new Map<string, number>();
    for (const tags of [...sideA, ...sideB]) for (const tag of decodeTags(tags)) voteTags.set(tag, (voteTags.get(tag) ?? 0) + 1);
    const reactionTags = new Map<string, number>();
    let likes = 0;
    let dislikes = 0;
    for (const reaction of reactions) {
      if (reaction.value === 'like') likes += 1;
      else if (reaction.value === 'dislike') dislikes += 1;
      for (const tag of decodeTags(reaction.tags)) reactionTags.set(tag, (reactionTags.get(tag) ?? 0) + 1);
    }
    return {
      taggedAnswers: sideA.length + sideB.length,
      voteTags,
      reactions: { total: reactions.length, likes, dislikes, tags: reactionTags },
    };
  }

  /** Replaces the kept tallies with a refresh's (one row: the snapshots keep the history, not these). */
  async saveTallies(tallies: ModelTallies): Promise<void> {
    const body = JSON.stringify({ pairs: tallies.pairs, languages: tallies.languages });
    await this.db
      .insertInto('model_tallies')
      .values({ id: 1, generated_at: tallies.generatedAt, body })
      .onConflict((conflict) => conflict.column('id').doUpdateSet({ generated_at: tallies.generatedAt, body }))
      .execute();
  }

  /** The tallies of the latest refresh of any instance, if one ran. */
  async latestTallies(): Promise<ModelTallies | undefined> {
    const row = await this.db.selectFrom('model_tallies').select(['generated_at', 'body']).where('id', '=', 1).executeTakeFirst();
    if (!row) return undefined;
    const body = JSON.parse(row.body) as Pick<ModelTallies, 'pairs' | 'languages'>;
    return { generatedAt: row.generated_at, pairs: body.pairs, languages: body.languages };
  }

  private async taggedVotes(model: string, side: 'a' | 'b', ownViewModes: readonly string[]): Promise<{ duel_id: string; tags: string }[]> {
    const modelColumn = side === 'a' ? 'votes.model_a' : 'votes.model_b';
    const tagsColumn = side === 'a' ? 'votes.tags_a' : 'votes.tags_b';
    let query = this.db
      .selectFrom('votes')
      .innerJoin('duels', 'duels.id', 'votes.duel_id')
      .leftJoin('vote_reviews', 'vote_reviews.duel_id', 'votes.duel_id')
      .select(['votes.duel_id', `${tagsColumn} as tags`])
      .where(modelColumn, '=', model)
      // A literal, as the partial indexes' condition is written: a bound parameter would keep SQLite from using them.
      .where(sql<SqlBool>`${sql.ref(tagsColumn)} <> ${sql.lit('[]')}`)
      .where('votes.identity_leak', '=', 0)
      .where('votes.served_model_mismatch', '=', 0)
      .where((eb) => eb.or([eb('vote_reviews.decision', 'is', null), eb('vote_reviews.decision', '<>', 'exclude')]));
    if (ownViewModes.length > 0)
      query = query.where((eb) => eb.or([eb('duels.source', '<>', 'arena'), eb('votes.mode', 'not in', [...ownViewModes])]));
    return query.execute();
  }
}

/** A stored JSON list of tags; anything else (a hand-edited row) counts as none. */
function decodeTags(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((tag): tag is string => typeof tag === 'string') : [];
  } catch {
    return [];
  }
}
