import type { Kysely } from 'kysely';
import type { Database } from '../database';
import { LeaseRepository } from './lease.repository';
import type { CalibrationRecord } from '../../domain/maxx/maxx-calibration';

export interface LlmCallRecord {
  key: string;
  role: string;
  step: string;
  modelId: string;
  response: string;
  inputTokens: number | null;
  outputTokens: number | null;
  createdAt: string;
}

/** What the card counts of one item's judging and gating. */
export interface MaxxItemStats {
  /** One entry per original reply judged in both orders: its model, whether the orders agreed, whether the optimal won. */
  pairs: { model: string; consistent: boolean; won: boolean }[];
  critic: { calls: number; passes: number };
  /** With `--calibrate`: the judge on the two original replies against the visitor's preference. */
  calibration?: CalibrationRecord;
}

export interface MaxxItemRecord {
  itemKey: string;
  runKey: string;
  subset: string;
  sourceId: string;
  language: string;
  status: 'kept' | 'dropped';
  reason: string | null;
  row: Record<string, unknown> | null;
  stats: MaxxItemStats;
  createdAt: string;
}

/** The cache of LLM calls and the outcomes of the optimised set's items. */
export class MaxxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findCall(key: string): Promise<LlmCallRecord | undefined> {
    const row = await this.db.selectFrom('llm_calls').selectAll().where('key', '=', key).executeTakeFirst();
    return row
      ? {
          key: row.key,
          role: row.role,
          step: row.step,
          modelId: row.model_id,
          response: row.response,
          inputTokens: row.input_tokens,
          outputTokens: row.output_tokens,
          createdAt: row.created_at,
        }
      : undefined;
  }

  /** Stores an answered call; a call answered twice (two workers) keeps the first answer. */
  async saveCall(call: LlmCallRecord): Promise<void> {
    await this.db
      .insertInto('llm_calls')
      .values({
        key: call.key,
        role: call.role,
        step: call.step,
        model_id: call.modelId,
        response: call.response,
        input_tokens: call.inputTokens,
        output_tokens: call.outputTokens,
        created_at: call.createdAt,
      })
      .onConflict((conflict) => conflict.column('key').doNothing())
      .execute();
  }

  /**
   * Takes an item for `owner` until `leaseUntil` (ISO-8601), unless another owner holds an unexpired
   * lease on it; renewing one's own lease is taking it again. One statement, so that two workers
   * never both get an item.
   */
  async claimItem(itemKey: string, owner: string, now: string, leaseUntil: string): Promise<boolean> {
    return new LeaseRepository(this.db).claim(itemKey, owner, now, leaseUntil);
  }

  /** The keys of the items of a run that already have an outcome. */
  async finishedItemKeys(runKey: string): Promise<Set<string>> {
    const rows = await this.db.selectFrom('maxx_items').select('item_key').where('run_key', '=', runKey).execute();
    return new Set(rows.map((row) => row.item_key));
  }

  /** Records an item's outcome once: a second worker's outcome for the same item is ignored. */
  async saveItem(item: MaxxItemRecord): Promise<void> {
    await this.db
      .insertInto('maxx_items')
      .values({
        item_key: item.itemKey,
        run_key: item.runKey,
        subset: item.subset,
        source_id: item.sourceId,
        language: item.language,
        status: item.status,
        reason: item.reason,
        row_json: item.row === null ? null : JSON.stringify(item.row),
        stats_json: JSON.stringify(item.stats),
        created_at: item.createdAt,
      })
      .onConflict((conflict) => conflict.column('item_key').doNothing())
      .execute();
  }

  /** Every outcome of a run, in item order (the order the run listed them in is the key order). */
  async listItems(runKey: string): Promise<MaxxItemRecord[]> {
    const rows = await this.db.selectFrom('maxx_items').selectAll().where('run_key', '=', runKey).orderBy('item_key').execute();
    return rows.map((row) => ({
      itemKey: row.item_key,
      runKey: row.run_key,
      subset: row.subset,
      sourceId: row.source_id,
      language: row.language,
      status: row.status === 'kept' ? 'kept' : 'dropped',
      reason: row.reason,
      row: row.row_json === null ? null : (JSON.parse(row.row_json) as Record<string, unknown>),
      stats: JSON.parse(row.stats_json) as MaxxItemStats,
      createdAt: row.created_at,
    }));
  }
}
