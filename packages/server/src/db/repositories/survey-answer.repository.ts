import type { Kysely } from 'kysely';
import type { Database } from '../database';

/** A visitor's survey: its answers (question id → option id), or null when skipped. */
export interface SurveyAnswerRecord {
  visitorHash: string;
  answers: Record<string, string> | null;
  answeredAt: string;
}

/** An arena vote the population board may weigh: who cast it, and what it says. */
export interface PopulationVoteRecord {
  /** Its duel: the integrity rules' flags are keyed by it. */
  duelId: string;
  visitorHash: string;
  modelA: string;
  modelB: string;
  choice: string;
}

/** Survey answers per visitor cookie hash (docs/privacy.md#population-survey). */
export class SurveyAnswerRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records the answers or the skip; a later call replaces them (the survey is shown once, the API takes a change). */
  async put(record: SurveyAnswerRecord): Promise<void> {
    const values = { answers: record.answers === null ? null : JSON.stringify(record.answers), answered_at: record.answeredAt };
    await this.db
      .insertInto('survey_answers')
      .values({ visitor_hash: record.visitorHash, ...values })
      .onConflict((conflict) => conflict.column('visitor_hash').doUpdateSet(values))
      .execute();
  }

  async find(visitorHash: string): Promise<SurveyAnswerRecord | undefined> {
    const row = await this.db.selectFrom('survey_answers').selectAll().where('visitor_hash', '=', visitorHash).executeTakeFirst();
    return row && toRecord(row);
  }

  /** Every visitor's answers (skips left out). */
  async listAnswered(): Promise<SurveyAnswerRecord[]> {
    const rows = await this.db.selectFrom('survey_answers').selectAll().where('answers', 'is not', null).execute();
    return rows.map(toRecord);
  }

  /** Deletes a visitor's answers (their erasure); how many rows went. */
  async erase(visitorHash: string): Promise<number> {
    const result = await this.db.deleteFrom('survey_answers').where('visitor_hash', '=', visitorHash).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes answers given before `before` (the retention rule: the duels' visitor hashes are forgotten then too). */
  async purgeBefore(before: string): Promise<number> {
    const result = await this.db.deleteFrom('survey_answers').where('answered_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * The arena votes of answering visitors that the main board could count: not of the custom mode
   * (the visitor chose the models), no identity leak, no served-model mismatch, no self-play.
   */
  async answeredVisitorsVotes(): Promise<PopulationVoteRecord[]> {
    const rows = await this.countableVotes()
      .innerJoin('survey_answers', 'survey_answers.visitor_hash', 'duels.visitor_hash')
      .select(['votes.duel_id', 'duels.visitor_hash', 'votes.model_a', 'votes.model_b', 'votes.choice'])
      .where('survey_answers.answers', 'is not', null)
      .orderBy('votes.created_at')
      .orderBy('votes.duel_id')
      .execute();
    return rows.map((row) => ({
      duelId: row.duel_id,
      visitorHash: row.visitor_hash,
      modelA: row.model_a,
      modelB: row.model_b,
      choice: row.choice,
    }));
  }

  /** Every vote {@link answeredVisitorsVotes} could read, answered or not: the share's denominator. */
  async countCountableVotes(): Promise<number> {
    const row = await this.countableVotes()
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  private countableVotes() {
    return this.db
      .selectFrom('votes')
      .innerJoin('duels', 'duels.id', 'votes.duel_id')
      .where('duels.source', '=', 'arena')
      .where('votes.mode', '<>', 'custom')
      .where('votes.identity_leak', '=', 0)
      .where('votes.served_model_mismatch', '=', 0)
      .whereRef('votes.model_a', '<>', 'votes.model_b');
  }
}

function toRecord(row: { visitor_hash: string; answers: string | null; answered_at: string }): SurveyAnswerRecord {
  return {
    visitorHash: row.visitor_hash,
    answers: row.answers === null ? null : (JSON.parse(row.answers) as Record<string, string>),
    answeredAt: row.answered_at,
  };
}
