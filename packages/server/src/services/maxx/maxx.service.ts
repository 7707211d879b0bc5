import { createHash, randomBytes } from 'node:crypto';
import { MAXX_PROMPTS_DIGEST, MAXX_ROLES, type MaxxRole } from '../../adapters/maxx-steps';
import { loadTokenCounter } from '../../adapters/local-token-count';
import type { Store } from '../../db/unit-of-work';
import { agreementOf } from '../../domain/maxx/maxx-calibration';
import { type MaxxItemRecord, isProviderDrop } from '../../domain/maxx/maxx-outcome';
import { type PeopleAgreement, type PeopleVerdict, peopleAgreement, peopleVerdict } from '../../domain/maxx/maxx-people';
import { digestOf } from './maxx-check.service';
import { MAXX_RULES_VERSION, MAXX_SUBSETS, type MaxxSubset } from '../../domain/maxx/maxx-rules';
import { ProviderCallError } from '../../providers/spec';
import type { Runtime } from '../ports/runtime';
import { type Accounting, CostLimitReached, type GatewaySettings, MaxxCallGateway, newAccounting } from './maxx-call-gateway';
import { type MaxxItem, listEligibleItems, runItemKey, whyNoItem } from './maxx-items';
import { type ItemOutcome, type PipelineSettings, processMaxxItem } from './maxx-pipeline';
import { type MaxxPlan, standInCall } from './maxx-plan';
import { type MaxxCallSettings, type MaxxRoles, type TrainingUseLookup, callSettingsOf, roleIds } from './maxx-roles';
import { type MaxxSetDescription, writeMaxxSet } from './maxx-set-writer';

export { CostLimitReached } from './maxx-call-gateway';
export type { MaxxItem } from './maxx-items';
export type { MaxxPlan } from './maxx-plan';
export type { MaxxRoleModel, MaxxRoles } from './maxx-roles';

/**
 * `agora maxx`: the optimised preference set (docs/datasets.md#optimised-preference-set). Lists the
 * eligible items of the store (voted conversations and disliked answers that passed screening),
 * claims each one (several workers may share a store), runs it through the pipeline with every call
 * through the gateway (cached in the store), records its outcome, and writes the subsets and their
 * card from the recorded outcomes only. A crashed or repeated run resumes: an item with a final
 * outcome is not run again, and a call already answered is not paid again.
 */

export interface MaxxOptions {
  subsets?: readonly MaxxSubset[];
  language?: string | undefined;
  limit?: number | undefined;
  concurrency?: number;
}

export interface MaxxSettings extends GatewaySettings {
  privateCohorts: readonly string[];
  /** Drafts the critic may reject before an item is dropped. */
  gateAttempts: number;
  /** How long a worker holds an item without renewing its lease; a dead worker's item is taken over after it. */
  leaseMs: number;
  /** The judges also compare the two original replies of each item, for their agreement with the visitors (`--calibrate`). */
  calibrate: boolean;
  /** A judge may also be a writer, reviewer or critic (`--allow-self-judging`): said in the card. */
  selfJudging: boolean;
  /** What each model's text may be used for (the catalogue's licences); unknown models: `check_licence`. */
  trainingUse: TrainingUseLookup;
  /** The licences of the catalogue's models, for the card. */
  modelLicences: readonly { id: string; license: string; trainingUse: string }[];
}

export interface MaxxProgress {
  done: number;
  total: number;
  kept: number;
  calls: number;
  cachedCalls: number;
  /** US dollars this run has spent so far (roles without a price count 0). */
  spentUsd: number;
}

export interface MaxxRunResult {
  runKey: string;
  items: number;
  kept: number;
  dropped: Record<string, number>;
  /** Items left without an outcome (a provider kept failing): a later run takes them up. */
  unfinished: number;
  calls: number;
  cachedCalls: number;
  /** Requests sent to the providers (every attempt included), in all and by step. */
  requests: number;
  requestsByStep: Record<string, number>;
  tokens: Record<MaxxRole, { input: number; output: number }>;
  /** US dollars spent by this run, per role, from the catalogue's prices (roles without a price count 0). */
  costUsd: Record<MaxxRole, number>;
  /** The run stopped at `maxCostUsd`: its remaining items are left for a later run. */
  stoppedAtCost: boolean;
}

const DEFAULT_SETTINGS: MaxxSettings = {
  privateCohorts: [],
  callTimeoutMs: 120_000,
  callAttempts: 4,
  backoffMs: 1000,
  gateAttempts: 2,
  leaseMs: 120_000,
  calibrate: false,
  selfJudging: false,
  trainingUse: () => 'check_licence',
  modelLicences: [],
};

export class MaxxService {
  private readonly settings: MaxxSettings;
  readonly runKey: string;
  private readonly gateway: MaxxCallGateway;
  /** This worker, in the item claims (several processes may share a store). */
  private readonly owner = randomBytes(8).toString('hex');

  constructor(
    private readonly store: Store,
    private readonly roles: MaxxRoles,
    settings: Partial<MaxxSettings>,
    private readonly runtime: Pick<Runtime, 'now'>,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.settings = { ...DEFAULT_SETTINGS, ...settings };
    this.gateway = new MaxxCallGateway(store, roles, this.settings, runtime, sleep);
    this.runKey = createHash('sha256')
      // A calibrated run is another run (its outcomes carry the calibration); its other calls come from the cache.
      .update(
        JSON.stringify([
          MAXX_PROMPTS_DIGEST,
          MAXX_RULES_VERSION,
          roleIds(roles),
          this.callSettings(),
          ...(this.settings.calibrate ? ['calibrate'] : []),
        ]),
      )
      .digest('hex')
      .slice(0, 16);
  }

  /** What each role's calls are sent, by `role:model`. */
  private callSettings(): Record<string, MaxxCallSettings> {
    const entries: [string, MaxxCallSettings][] = [];
    for (const role of MAXX_ROLES) {
      const models = role === 'judge' ? this.roles.judges : [this.roles[role]];
      for (const model of models) entries.push([`${role}:${model.id}`, callSettingsOf(role, model)]);
    }
    return Object.fromEntries(entries);
  }

  private pipelineSettings(): PipelineSettings {
    return {
      gateAttempts: this.settings.gateAttempts,
      calibrate: this.settings.calibrate,
      judges: this.roles.judges.length,
      writers: [...new Set([this.roles.generator.id, this.roles.stylist.id])],
      trainingUse: this.settings.trainingUse,
    };
  }

  /** The eligible items, in the store's order, filtered as asked. */
  listItems(options: MaxxOptions = {}): Promise<MaxxItem[]> {
    return listEligibleItems(this.store, this.settings.privateCohorts, options);
  }

  /**
   * What a run would do, without any LLM call: the items without a final outcome go through the
   * real pipeline against the dry run's stand-in models (maxx-plan.ts), so the estimate counts the
   * calls and tokens of the real prompts, shared calls once; cost from the catalogue's prices.
   */
  async plan(options: MaxxOptions = {}): Promise<MaxxPlan> {
    const items = await this.listItems(options);
    const remaining = await this.withoutOutcome(items);
    const count = (key: (item: MaxxItem) => string) =>
      items.reduce<Record<string, number>>((counts, item) => ({ ...counts, [key(item)]: (counts[key(item)] ?? 0) + 1 }), {});
    const countTokens = await loadTokenCounter();
    const estimate = newAccounting();
    const seen = new Set<string>();
    const unpriced = new Set<MaxxRole>();
    for (const item of remaining)
      await processMaxxItem(
        item,
        (tag) => standInCall(item, this.roles, tag, estimate, seen, countTokens, unpriced),
        this.pipelineSettings(),
      );
    const costUsd = Object.fromEntries(MAXX_ROLES.map((role) => [role, unpriced.has(role) ? null : estimate.costUsd[role]])) as Record<
      MaxxRole,
      number | null
    >;
    const costs = Object.values(costUsd);
    return {
      items: items.length,
      alreadyDone: items.length - remaining.length,
      bySubset: count((item) => item.subset),
      byLanguage: count((item) => item.language),
      estimatedCalls: estimate.calls,
      estimatedCallsByStep: estimate.byStep,
      estimatedTokens: estimate.tokens,
      estimatedCostUsd: costUsd,
      estimatedTotalCostUsd: costs.every((cost) => cost !== null) ? costs.reduce<number>((sum, cost) => sum + cost, 0) : null,
    };
  }

  /**
   * Runs every eligible item that has no final outcome yet, `concurrency` at a time. Each item is
   * claimed first, so that workers sharing the store never run the same item; items another worker
   * holds are waited for, and taken over when its lease runs out (it died).
   */
  async run(options: MaxxOptions = {}, progress?: (state: MaxxProgress) => void): Promise<MaxxRunResult> {
    const items = await this.listItems(options);
    const accounting = newAccounting();
    const result: MaxxRunResult = {
      runKey: this.runKey,
      items: items.length,
      kept: 0,
      dropped: {},
      unfinished: 0,
      calls: 0,
      cachedCalls: 0,
      requests: 0,
      requestsByStep: accounting.byStep,
      tokens: accounting.tokens,
      costUsd: accounting.costUsd,
      stoppedAtCost: false,
    };
    let remaining = await this.withoutOutcome(items);
    let done = items.length - remaining.length;
    while (remaining.length > 0) {
      const heldElsewhere: MaxxItem[] = [];
      let next = 0;
      const worker = async () => {
        while (next < remaining.length && !result.stoppedAtCost) {
          const item = remaining[next++]!;
          if (!(await this.claim(item))) {
            heldElsewhere.push(item);
            continue;
          }
          const outcome = await this.runItem(item, accounting, result);
          await this.settle(item, outcome);
          if (outcome === null) result.unfinished += 1;
          else if (outcome.status === 'kept') result.kept += 1;
          else result.dropped[outcome.reason] = (result.dropped[outcome.reason] ?? 0) + 1;
          done += 1;
          progress?.({
            done,
            total: items.length,
            kept: result.kept,
            calls: accounting.calls,
            cachedCalls: accounting.cachedCalls,
            spentUsd: accounting.spentUsd,
          });
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
      if (heldElsewhere.length === 0 || result.stoppedAtCost) break;
      // Other workers hold these: wait for their outcomes, or for a dead worker's lease to run out.
      await this.sleep(Math.min(2000, this.settings.leaseMs / 2));
      remaining = await this.withoutOutcome(heldElsewhere);
      done = items.length - remaining.length - result.unfinished;
    }
    result.calls = accounting.calls;
    result.cachedCalls = accounting.cachedCalls;
    result.requests = accounting.requests;
    return result;
  }

  /** One item under its lease; null when a provider kept failing or the spending limit was reached (no outcome: a later run takes it up). */
  private async runItem(item: MaxxItem, accounting: Accounting, result: MaxxRunResult): Promise<ItemOutcome | null> {
    return this.withLease(item, () =>
      processMaxxItem(item, (tag, notes) => this.gateway.caller(accounting, tag, notes), this.pipelineSettings()),
    ).catch((error: unknown) => {
      if (error instanceof CostLimitReached) result.stoppedAtCost = true;
      else if (!ProviderCallError.isInstance(error)) throw error;
      return null;
    });
  }

  /**
   * Records an item's outcome. An item left to a later run (no outcome, or dropped for the provider's
   * fault) is released too: the next run, in this process or another, takes it up at once instead of
   * waiting out this worker's lease.
   */
  private async settle(item: MaxxItem, outcome: ItemOutcome | null): Promise<void> {
    if (outcome !== null) await this.store.maxx.saveItem(this.record(item, outcome));
    if (outcome === null || isProviderDrop(outcome)) await this.store.maxx.releaseItem(this.itemKey(item), this.owner);
  }

  private async withoutOutcome(items: readonly MaxxItem[]): Promise<MaxxItem[]> {
    const finished = await this.store.maxx.finishedItemKeys(this.runKey);
    return items.filter((item) => !finished.has(this.itemKey(item)));
  }

  private claim(item: MaxxItem): Promise<boolean> {
    const now = this.runtime.now();
    return this.store.maxx.claimItem(
      this.itemKey(item),
      this.owner,
      now.toISOString(),
      new Date(now.getTime() + this.settings.leaseMs).toISOString(),
    );
  }

  /** Runs the work while renewing the item's lease, so that a long item is not taken over from a live worker. */
  private async withLease<T>(item: MaxxItem, work: () => Promise<T>): Promise<T> {
    const timer = setInterval(() => void this.claim(item).catch(() => undefined), Math.max(50, this.settings.leaseMs / 3));
    try {
      return await work();
    } finally {
      clearInterval(timer);
    }
  }

  /** An item of this run: the same conversation run with other models or prompts is another item. */
  private itemKey(item: MaxxItem): string {
    return runItemKey(this.runKey, item);
  }

  /** Why a run has no eligible item, in words for the operator and the card. */
  whyNoItem(options: MaxxOptions = {}): Promise<string> {
    return whyNoItem(this.store, this.settings.privateCohorts, options);
  }

  /** What the card says beyond the outcomes. */
  private description(): MaxxSetDescription {
    return {
      roles: roleIds(this.roles),
      callSettings: this.callSettings(),
      selfJudging: this.settings.selfJudging,
      models: this.settings.modelLicences,
    };
  }

  /**
   * Writes the subsets (Parquet and JSONL per language) and the card from the recorded outcomes of
   * this run, and records the publication for the datasets page; `emptyBecause` is the card's reason
   * when there is no item at all.
   */
  async assemble(
    outDir: string,
    emptyBecause?: string,
  ): Promise<{ cardPath: string; rows: Record<MaxxSubset, number>; people: Omit<PeopleAgreement, 'withTies' | 'withoutTies'> }> {
    // Only what is eligible now: a conversation excluded, reported or erased since its item ran is not published.
    const eligible = new Set((await this.listItems()).map((item) => this.itemKey(item)));
    const records = (await this.store.maxx.listItems(this.runKey)).filter((record) => eligible.has(record.itemKey));
    const description = this.description();
    const people = await this.peopleOn(records);
    const { checks, optimal, original, ties } = peopleAgreement(Object.values(people).flat());
    const written = {
      ...writeMaxxSet(records, { ...description, people }, outDir, emptyBecause),
      people: { checks, optimal, original, ties },
    };
    // A run with nothing eligible is the operator's error (exit 2), not a publication.
    if (emptyBecause !== undefined) return written;
    const languages = new Map<string, number>();
    for (const record of records) if (record.status === 'kept') languages.set(record.language, (languages.get(record.language) ?? 0) + 1);
    const calibrations = records.flatMap((record) => (record.stats.calibration ? [record.stats.calibration] : []));
    const agreement = agreementOf(calibrations);
    await this.store.datasets.recordBuild({
      id: randomBytes(8).toString('hex'),
      kind: 'optimised',
      createdAt: this.runtime.now().toISOString(),
      summary: {
        runKey: this.runKey,
        models: description.roles,
        description,
        subsets: MAXX_SUBSETS.map((subset) => ({ name: subset, rows: written.rows[subset] })),
        languages: [...languages]
          .sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0]))
          .map(([language, rows]) => ({ language, rows })),
        judge_agreement:
          calibrations.length === 0 ? null : { pairs: agreement.pairs, rate: agreement.rate, low: agreement.low, high: agreement.high },
      },
    });
    return written;
  }

  /**
   * People's choices on the kept rows (check mode), by the record's item key: the checks of the
   * same item that were shown this row's reply (a run that kept another reply has its own), not
   * made faster than the replies can be read.
   */
  private async peopleOn(records: readonly MaxxItemRecord[]): Promise<Record<string, PeopleVerdict[]>> {
    const kept = records.filter((record) => record.status === 'kept' && record.row !== null);
    const withoutRun = (record: MaxxItemRecord) => record.itemKey.slice(this.runKey.length + 1);
    const checks = await this.store.maxxChecks.choicesOf(kept.map(withoutRun));
    const people: Record<string, PeopleVerdict[]> = {};
    for (const record of kept) {
      const digest = digestOf(String(record.row!.response_optimal));
      const own = checks.filter((check) => check.itemKey === withoutRun(record) && check.optimalDigest === digest && check.flag === null);
      if (own.length > 0) people[record.itemKey] = own.map(peopleVerdict);
    }
    return people;
  }

  private record(item: MaxxItem, outcome: ItemOutcome): MaxxItemRecord {
    return {
      itemKey: this.itemKey(item),
      runKey: this.runKey,
      subset: item.subset,
      sourceId: item.sourceId,
      language: item.language,
      status: outcome.status,
      reason: outcome.reason,
      row: outcome.row,
      stats: outcome.stats,
      createdAt: this.runtime.now().toISOString(),
    };
  }
}
