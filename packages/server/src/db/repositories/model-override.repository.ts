import type { Kysely } from 'kysely';
import type { Database } from '../database';

/** An operator's change over models.yaml, its body decoded from JSON (the service validates it). */
export interface ModelOverrideRecord {
  modelId: string;
  kind: 'override' | 'added';
  body: unknown;
  updatedBy: string;
  updatedAt: string;
}

/** A model's answers since a time, from the turns stored: how many, how many failed, and their timings. */
export interface ModelCallStats {
  modelId: string;
  answers: number;
  failed: number;
  meanTtftMs: number | null;
  meanDurationMs: number | null;
}

/** One failed upstream call of a model, as the turn runner recorded it. */
export interface ModelErrorRecord {
  kind: string;
  statusCode: number | null;
  message: string;
  createdAt: string;
}

/** The console's models: the overrides over models.yaml, their change stamp, and what the store knows of each model's calls. */
export class ModelOverrideRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<ModelOverrideRecord[]> {
    const rows = await this.db.selectFrom('model_overrides').selectAll().orderBy('model_id').execute();
    return rows.map((row) => ({
      modelId: row.model_id,
      kind: row.kind === 'added' ? 'added' : 'override',
      body: JSON.parse(row.body) as unknown,
      updatedBy: row.updated_by,
      updatedAt: row.updated_at,
    }));
  }

  /** Writes a model's override (or added entry), replacing the one it had. */
  async put(record: Omit<ModelOverrideRecord, 'body'> & { body: object }): Promise<void> {
    const values = {
      kind: record.kind,
      body: JSON.stringify(record.body),
      updated_by: record.updatedBy,
      updated_at: record.updatedAt,
    };
    await this.db
      .insertInto('model_overrides')
      .values({ model_id: record.modelId, ...values })
      .onConflict((conflict) => conflict.column('model_id').doUpdateSet(values))
      .execute();
  }

  /** Deletes a model's override; true when there was one. */
  async remove(modelId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('model_overrides').where('model_id', '=', modelId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The version every change bumps (0 before the first). */
  async stamp(): Promise<number> {
    const row = await this.db.selectFrom('model_catalogue_stamp').select('version').where('id', '=', 1).executeTakeFirst();
    return row ? Number(row.version) : 0;
  }

  /** Bumps the version, in the change's own transaction: an instance polling sees both or neither. */
  async bumpStamp(at: string): Promise<void> {
    await this.db
      .updateTable('model_catalogue_stamp')
      .set((eb) => ({ version: eb('version', '+', 1), changed_at: at }))
      .where('id', '=', 1)
      .execute();
  }

  /** Every model's answers in turns started since a time: counts and mean timings of the complete ones. */
  async callStats(since: string): Promise<ModelCallStats[]> {
    const rows = await this.db
      .selectFrom('turn_sides')
      .innerJoin('turns', (join) => join.onRef('turns.duel_id', '=', 'turn_sides.duel_id').onRef('turns.turn', '=', 'turn_sides.turn'))
      .innerJoin('duels', 'duels.id', 'turn_sides.duel_id')
      .select((eb) => [
        'turn_sides.model_id',
        eb.fn.countAll<string | number>().as('answers'),
        eb.fn.sum<string | number | null>(eb.case().when('turn_sides.status', '=', 'failed').then(1).else(0).end()).as('failed'),
        eb.fn.avg<string | number | null>('turn_sides.ttft_ms').as('mean_ttft'),
        eb.fn.avg<string | number | null>('turn_sides.duration_ms').as('mean_duration'),
      ])
      .where('turns.started_at', '>=', since)
      .where('duels.source', '=', 'arena')
      .groupBy('turn_sides.model_id')
      .execute();
    const rounded = (value: string | number | null) => (value === null ? null : Math.round(Number(value)));
    return rows.map((row) => ({
      modelId: row.model_id,
      answers: Number(row.answers),
      failed: Number(row.failed ?? 0),
      meanTtftMs: rounded(row.mean_ttft),
      meanDurationMs: rounded(row.mean_duration),
    }));
  }

  /** A model's last failed upstream calls, newest first. */
  async lastErrors(modelId: string, limit: number): Promise<ModelErrorRecord[]> {
    const rows = await this.db
      .selectFrom('upstream_errors')
      .select(['kind', 'status_code', 'message', 'created_at'])
      .where('model_id', '=', modelId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ kind: row.kind, statusCode: row.status_code, message: row.message, createdAt: row.created_at }));
  }
}
