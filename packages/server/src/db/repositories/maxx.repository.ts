import type { Kysely } from 'kysely';
import type { Database } from '../database';
import { LeaseRepository } from './lease.repository';
import { type MaxxItemRecord, type MaxxItemStats, PROVIDER_DROP_REASONS, isProviderDrop } from '../../domain/maxx/maxx-outcome';

export type { MaxxItemRecord, MaxxItemStats };

export interface LlmCallRecord {
  key: string;
  role: string;
  step: string;
  modelId: string;
  response: string;
  inputTokens: number | null;
  outputTokens: number | null;
  createdAt: string;
  /** How the answer ended: only a normal `stop` is a complete answer that a later call may reuse. */
  finishReason: string;
  /** What the call was sent. */
  settings: { maxOutputTokens: number; temperature: number; seed: number | null };
}

/** The cache of LLM calls and the outcomes of the optimised set's items. */
export class MaxxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The complete answer to a call asked before (one that ended on a normal stop), if any. */
  async findCall(key: string): Promise<LlmCallRecord | undefined> {
    const row = await this.db
      .selectFrom('llm_calls')
      .selectAll()
      .where('key', '=', key)
      .where((where) => where.or([where('finish_reason', '=', 'stop'), where('finish_reason', 'is', null)]))
      .executeTakeFirst();
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
          finishReason: row.finish_reason ?? 'stop',
          settings:
            row.settings_json === null
              ? { maxOutputTokens: 0, temperature: 0, seed: null }
              : (JSON.parse(row.settings_json) as LlmCallRecord['settings']),
        }
      : undefined;
  }

  /** The finish reason of an answer stored for this call that did not end normally (cut, filtered), if any. */
  async incompleteCall(key: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('llm_calls')
      .select('finish_reason')
      .where('key', '=', key)
      .where('finish_reason', '<>', 'stop')
      .executeTakeFirst();
    return row?.finish_reason ?? undefined;
  }

  /**
   * Stores an answered call; a call answered twice (two workers) keeps the first complete answer. An
   * incomplete answer (cut on length) is kept for the record and replaced by a later complete one.
   */
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
        finish_reason: call.finishReason,
        settings_json: JSON.stringify(call.settings),
      })
      .onConflict((conflict) =>
        conflict
          .column('key')
          .doUpdateSet((update) => ({
            response: update.ref('excluded.response'),
            input_tokens: update.ref('excluded.input_tokens'),
            output_tokens: update.ref('excluded.output_tokens'),
            created_at: update.ref('excluded.created_at'),
            finish_reason: update.ref('excluded.finish_reason'),
          }))
          .where('llm_calls.finish_reason', '<>', 'stop'),
      )
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

  /** Gives up `owner`'s lease on an item (it is done with it), so that another worker need not wait for it to run out. */
  async releaseItem(itemKey: string, owner: string): Promise<void> {
    await new LeaseRepository(this.db).release(itemKey, owner);
  }

  /**
   * The keys of the items of a run that have a final outcome: kept, or dropped for a reason about
   * the content. Items dropped for a provider's fault (a malformed or cut answer) are not final: a
   * later run takes them up again.
   */
  async finishedItemKeys(runKey: string): Promise<Set<string>> {
    const rows = await this.db.selectFrom('maxx_items').select(['item_key', 'status', 'reason']).where('run_key', '=', runKey).execute();
    return new Set(
      rows
        .filter((row) => !(row.status === 'dropped' && isProviderDrop({ status: 'dropped', reason: row.reason })))
        .map((row) => row.item_key),
    );
  }

  /**
   * Records an item's outcome once: a second worker's outcome for the same item is ignored, except
   * that an outcome replaces a drop for a provider's fault (the item was taken up again).
   */
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
      .onConflict((conflict) =>
        conflict
          .column('item_key')
          .doUpdateSet((update) => ({
            status: update.ref('excluded.status'),
            reason: update.ref('excluded.reason'),
            row_json: update.ref('excluded.row_json'),
            stats_json: update.ref('excluded.stats_json'),
            created_at: update.ref('excluded.created_at'),
          }))
          .where('maxx_items.status', '=', 'dropped')
          .where('maxx_items.reason', 'in', [...PROVIDER_DROP_REASONS]),
      )
      .execute();
  }

  /** The row an item kept, if it kept one. */
  async keptRow(itemKey: string): Promise<Record<string, unknown> | undefined> {
    const row = await this.db
      .selectFrom('maxx_items')
      .select('row_json')
      .where('item_key', '=', itemKey)
      .where('status', '=', 'kept')
      .executeTakeFirst();
    return row?.row_json ? (JSON.parse(row.row_json) as Record<string, unknown>) : undefined;
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
