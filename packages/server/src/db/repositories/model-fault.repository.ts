import type { Kysely } from 'kysely';
import type { Database } from '../database';
import type { UpstreamErrorRecord } from './duel-records';

/** What went wrong on the models' side: failed upstream calls, and answers served by another model than the catalogue's. */
export class ModelFaultRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async listUpstreamErrors(duelId: string): Promise<UpstreamErrorRecord[]> {
    const rows = await this.db.selectFrom('upstream_errors').selectAll().where('duel_id', '=', duelId).orderBy('created_at').execute();
    return rows.map((row) => ({
      id: row.id,
      turn: row.turn,
      side: row.side as 'a' | 'b',
      modelId: row.model_id,
      kind: row.kind,
      statusCode: row.status_code,
      message: row.message,
      replaced: row.replaced === 1,
      createdAt: row.created_at,
    }));
  }

  /** Per-model upstream failures over a period, for operators. */
  async countUpstreamErrorsByModel(since: string): Promise<{ modelId: string; kind: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('upstream_errors')
      .select(['model_id', 'kind', (eb) => eb.fn.countAll<string | number>().as('count')])
      .where('created_at', '>=', since)
      .groupBy(['model_id', 'kind'])
      .orderBy('model_id')
      .orderBy('kind')
      .execute();
    return rows.map((row) => ({ modelId: row.model_id, kind: row.kind, count: Number(row.count) }));
  }

  /** Answers whose provider named another model than the catalogue's, per model and served name, since a time. */
  async countServedModelMismatches(since: string): Promise<{ modelId: string; servedModel: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('turn_sides')
      .innerJoin('turns', (join) => join.onRef('turns.duel_id', '=', 'turn_sides.duel_id').onRef('turns.turn', '=', 'turn_sides.turn'))
      .select(['turn_sides.model_id', 'turn_sides.served_model', (eb) => eb.fn.countAll<string | number>().as('count')])
      .where('turn_sides.served_model_mismatch', '=', 1)
      .where('turns.started_at', '>=', since)
      .groupBy(['turn_sides.model_id', 'turn_sides.served_model'])
      .orderBy('turn_sides.model_id')
      .orderBy('turn_sides.served_model')
      .execute();
    return rows.map((row) => ({ modelId: row.model_id, servedModel: row.served_model ?? '', count: Number(row.count) }));
  }
}
