import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pLimit, { type LimitFunction } from 'p-limit';
import { type DatasetFileWriter, Utf8Encodings, jsonlFileWriter, parquetFileWriter } from '../adapters/dataset-files/dataset-writers';
import {
  type CallModel,
  type StepCall,
  MAXX_PROMPTS_DIGEST,
  MAXX_ROLES,
  MalformedAnswerError,
  MaxxSteps,
  type MaxxRole,
  type ReactionContext,
} from '../adapters/maxx-steps';
import type { ExportableConversation } from '../db/repositories/dataset.repository';
import type { MaxxItemRecord, MaxxItemStats } from '../db/repositories/maxx.repository';
import type { Store } from '../db/unit-of-work';
import { prepareConversation } from '../domain/datasets/conversation-rows';
import type { ChatMessage } from '../domain/datasets/export-columns';
import { rowContext } from '../domain/datasets/row-context';
import { buildMaxxCard } from '../domain/maxx/maxx-card';
import {
  type BothOrders,
  type JudgedOriginal,
  MAXX_SUBSETS,
  type MaxxSubset,
  type PairVerdict,
  decideArenaRow,
  decideReactionRow,
  failedCriteria,
  isPositionConsistent,
  pairOutcome,
  subsetOfVote,
} from '../domain/maxx/maxx-rules';
import { MAXX_COLUMNS, maxxRow } from '../domain/maxx/maxx-rows';
import {
  type CalibrationRecord,
  type SidePreference,
  agreementOf,
  dislikeSidePreference,
  judgeSidePreference,
  voteSidePreference,
} from '../domain/maxx/maxx-calibration';
import { neutraliseFormatting } from '../domain/maxx/neutral-format';
import { publishableComment } from '../domain/privacy';
import { completeModelCall } from '../providers/complete-model-call';
import { type ModelClient, ProviderCallError } from '../providers/spec';
import { loadTokenCounter } from '../adapters/local-token-count';
import type { Runtime } from './runtime';

/**
 * `agora maxx`: the optimised preference set (docs/datasets.md#optimised-preference-set). Lists the
 * eligible items of the store (voted conversations and disliked answers that passed screening),
 * runs each through the LLM steps with every call cached in the store, records each item's outcome,
 * and writes the subsets and their card from the recorded outcomes only. A crashed or repeated run
 * resumes: an item with an outcome is not run again, and a call already answered is not paid again.
 */

export interface MaxxRoleModel {
  id: string;
  client: ModelClient;
  /** The endpoint it is served by, and how many requests that endpoint takes at once (unset: no limit beyond the run's concurrency). */
  provider?: { key: string; maxConcurrency?: number | undefined };
  /** US dollars per million tokens, when the catalogue says. */
  pricing?: { inputPerMillionUsd: number; outputPerMillionUsd: number } | undefined;
}

export type MaxxRoles = Record<MaxxRole, MaxxRoleModel>;

export interface MaxxOptions {
  subsets?: readonly MaxxSubset[];
  language?: string | undefined;
  limit?: number | undefined;
  concurrency?: number;
}

export interface MaxxSettings {
  privateCohorts: readonly string[];
  /** Bound of one call, retries included in none of it. */
  callTimeoutMs: number;
  /** Attempts of a retryable failure (429, 5xx, cut stream) before the item is left for a later run. */
  callAttempts: number;
  /** Base of the exponential backoff between attempts. */
  backoffMs: number;
  /** Drafts the critic may reject before an item is dropped. */
  gateAttempts: number;
  /** How long a worker holds an item without renewing its lease; a dead worker's item is taken over after it. */
  leaseMs: number;
  /** Spend (US dollars) at which this run sends no more calls; unset: no limit. */
  maxCostUsd?: number | undefined;
  /** The judge also compares the two original replies of each item, for its agreement with the visitors (`--calibrate`). */
  calibrate: boolean;
}

/** One eligible item: the turn a row is about, the replies it must beat, and what the visitor flagged. */
export interface MaxxItem {
  key: string;
  subset: MaxxSubset;
  sourceId: string;
  language: string;
  conversation: ExportableConversation;
  /** Index in `conversation.turns` of the row's final user turn. */
  turnIndex: number;
  originals: { side: 'a' | 'b'; model: string; text: string }[];
  reaction?: ReactionContext;
  /** Which of the turn's two replies the visitor preferred (their vote, or the other side of a dislike): the judge's calibration. */
  visitorPreference: SidePreference;
}

export interface MaxxPlan {
  /** Eligible items, and those of them that already have an outcome (a later run does not process them again). */
  items: number;
  alreadyDone: number;
  bySubset: Record<string, number>;
  byLanguage: Record<string, number>;
  /**
   * For the items without an outcome, assuming every gate passes at the first draft after one
   * revision (fewer calls when the reviewer finds nothing, more when the critic rejects a draft);
   * hidden reasoning tokens are not counted. Cost is null for a role without a catalogue price.
   */
  estimatedCalls: number;
  estimatedTokens: Record<MaxxRole, { input: number; output: number }>;
  estimatedCostUsd: Record<MaxxRole, number | null>;
  /** Null when a role has no price. */
  estimatedTotalCostUsd: number | null;
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
  tokens: Record<MaxxRole, { input: number; output: number }>;
  /** US dollars spent by this run, per role, from the catalogue's prices (roles without a price count 0). */
  costUsd: Record<MaxxRole, number>;
  /** The run stopped at `maxCostUsd`: its remaining items are left for a later run. */
  stoppedAtCost: boolean;
}

/** The run reached its spending limit: no call is sent after it. */
export class CostLimitReached extends Error {
  override readonly name = 'CostLimitReached';
}

/** The longest wait between two attempts of a call, whatever the upstream asks. */
const MAX_RETRY_WAIT_MS = 120_000;

const DEFAULT_SETTINGS: MaxxSettings = {
  privateCohorts: [],
  callTimeoutMs: 120_000,
  callAttempts: 4,
  backoffMs: 1000,
  gateAttempts: 2,
  leaseMs: 120_000,
  calibrate: false,
};

export class MaxxService {
  private readonly settings: MaxxSettings;
  readonly runKey: string;
  /** Calls being answered in this process, by cache key. */
  private readonly inFlight = new Map<string, Promise<string>>();
  /** This worker, in the item claims (several processes may share a store). */
  private readonly owner = randomBytes(8).toString('hex');
  /** The requests in flight to each provider endpoint, bounded by the lowest limit its role models declare. */
  private readonly providerLimits: Map<string, LimitFunction>;

  constructor(
    private readonly store: Store,
    private readonly roles: MaxxRoles,
    settings: Partial<MaxxSettings>,
    private readonly runtime: Pick<Runtime, 'now'>,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.settings = { ...DEFAULT_SETTINGS, ...settings };
    this.providerLimits = providerLimits(Object.values(roles));
    this.runKey = createHash('sha256')
      // A calibrated run is another run (its outcomes carry the calibration); its other calls come from the cache.
      .update(
        JSON.stringify([MAXX_PROMPTS_DIGEST, MAXX_ROLES.map((role) => roles[role].id), ...(this.settings.calibrate ? ['calibrate'] : [])]),
      )
      .digest('hex')
      .slice(0, 16);
  }

  /** The eligible items, in the store's order, filtered as asked. */
  async listItems(options: MaxxOptions = {}): Promise<MaxxItem[]> {
    const salt = await this.store.datasets.visitorSalt(() => randomSalt());
    const context = rowContext(salt, new Map());
    const wanted = new Set(options.subsets ?? MAXX_SUBSETS);
    const items: MaxxItem[] = [];
    for await (const batch of this.store.datasets.exportableConversations({
      privateCohorts: this.settings.privateCohorts,
      batchSize: 500,
    })) {
      for (const conversation of batch) {
        for (const item of itemsOf(conversation, context)) {
          if (!wanted.has(item.subset)) continue;
          if (options.language !== undefined && item.language !== options.language) continue;
          items.push(item);
          if (options.limit !== undefined && items.length >= options.limit) return items;
        }
      }
    }
    return items;
  }

  /**
   * What a run would do, without any LLM call: the items without an outcome go through the real
   * steps against a stand-in for the models that answers like a passing pipeline (a reply as long as
   * the longer original, one defect, gates passed, the optimal winning), so the estimate counts the
   * calls and the tokens of the real prompts; tokens are counted locally, cost from the catalogue's prices.
   */
  async plan(options: MaxxOptions = {}): Promise<MaxxPlan> {
    const items = await this.listItems(options);
    const remaining = await this.withoutOutcome(items);
    const count = (key: (item: MaxxItem) => string) =>
      items.reduce<Record<string, number>>((counts, item) => ({ ...counts, [key(item)]: (counts[key(item)] ?? 0) + 1 }), {});
    const countTokens = await loadTokenCounter();
    const estimate = newAccounting();
    for (const item of remaining) await this.processItem(item, () => standInCall(item, estimate, countTokens));
    const costUsd = Object.fromEntries(
      MAXX_ROLES.map((role) => {
        const { pricing } = this.roles[role];
        const tokens = estimate.tokens[role];
        return [
          role,
          pricing ? (tokens.input * pricing.inputPerMillionUsd + tokens.output * pricing.outputPerMillionUsd) / 1_000_000 : null,
        ];
      }),
    ) as Record<MaxxRole, number | null>;
    const costs = Object.values(costUsd);
    return {
      items: items.length,
      alreadyDone: items.length - remaining.length,
      bySubset: count((item) => item.subset),
      byLanguage: count((item) => item.language),
      estimatedCalls: estimate.calls,
      estimatedTokens: estimate.tokens,
      estimatedCostUsd: costUsd,
      estimatedTotalCostUsd: costs.every((cost) => cost !== null) ? costs.reduce<number>((sum, cost) => sum + cost, 0) : null,
    };
  }

  /**
   * Runs every eligible item that has no outcome yet, `concurrency` at a time. Each item is claimed
   * first, so that workers sharing the store never run the same item; items another worker holds
   * are waited for, and taken over when its lease runs out (it died).
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
          const outcome = await this.withLease(item, () => this.processItem(item, (tag) => this.callModel(accounting, tag))).catch(
            (error: unknown) => {
              // A provider that kept failing, or the spending limit: no outcome is recorded, so a later run takes the item up again.
              if (error instanceof CostLimitReached) result.stoppedAtCost = true;
              else if (!ProviderCallError.isInstance(error)) throw error;
              return null;
            },
          );
          if (outcome === null) result.unfinished += 1;
          else {
            await this.store.maxx.saveItem(outcome);
            if (outcome.status === 'kept') result.kept += 1;
            else result.dropped[outcome.reason ?? 'dropped'] = (result.dropped[outcome.reason ?? 'dropped'] ?? 0) + 1;
          }
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
    return result;
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
    return `${this.runKey}|${item.key}`;
  }

  /**
   * Why a run has no eligible item, in words for the operator and the card: an empty store, no
   * conversation screened yet, every one excluded, or the filters.
   */
  async whyNoItem(options: MaxxOptions = {}): Promise<string> {
    const counts = await this.store.datasets.exclusionCounts(this.settings.privateCohorts);
    const conversations = (count: number) => `${count} conversation${count === 1 ? '' : 's'}`;
    if (counts.conversations === 0) return 'the store has no conversation yet';
    const unscreened = counts.notScreened + counts.screeningFailed;
    if (unscreened === counts.conversations)
      return `none of the store's ${conversations(counts.conversations)} has passed personal-data screening yet (run \`agora postprocess\`, or import screened data)`;
    const excluded = counts.privateCohort + counts.reviewerExcluded + counts.flagged + counts.reportedNotReviewed;
    if (unscreened + excluded === counts.conversations)
      return `of the store's ${conversations(counts.conversations)}, ${unscreened} not screened yet and ${excluded} kept out of the open datasets (personal data, private cohort, reviewer's decision or a report)`;
    if (options.subsets !== undefined || options.language !== undefined) return 'no screened conversation matches --subset and --language';
    return 'no screened conversation has a vote or a disliked answer';
  }

  /**
   * Writes the subsets (Parquet and JSONL) and the card from the recorded outcomes of this run, and
   * records the publication for the datasets page; `emptyBecause` is the card's reason when there
   * is no item at all.
   */
  async assemble(outDir: string, emptyBecause?: string): Promise<{ cardPath: string; rows: Record<MaxxSubset, number> }> {
    const roles = Object.fromEntries(MAXX_ROLES.map((role) => [role, this.roles[role].id]));
    const records = await this.store.maxx.listItems(this.runKey);
    const written = writeMaxxSet(records, roles, outDir, emptyBecause);
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
        models: roles,
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

  private async processItem(item: MaxxItem, callFor: (tag: string) => CallModel): Promise<MaxxItemRecord> {
    const stats: MaxxItemStats = { pairs: [], critic: { calls: 0, passes: 0 } };
    // Calls are tagged with the turn and the attempt, so that a new attempt is a new call and not the cached one.
    const stepsFor = (tag: string) => new MaxxSteps(callFor(tag));
    const steps = stepsFor('final');
    const dropped = (reason: string): MaxxItemRecord => this.record(item, 'dropped', reason, null, stats);
    // First, so that every item is calibrated, whether its optimal reply is kept or not.
    if (this.settings.calibrate) stats.calibration = await calibrationOf(item, stepsFor('calibration'));
    const history: ChatMessage[] = [];
    let optimal = '';
    let reactionVerdict: { fixesDefect: boolean; complaint: 'valid' | 'partly' | 'mistaken' } | undefined;
    try {
      for (let index = 0; index <= item.turnIndex; index++) {
        history.push({ role: 'user', content: item.conversation.turns[index]!.prompt });
        const final = index === item.turnIndex;
        const reply = await this.gatedReply(stepsFor, history, item.language, final ? item.reaction : undefined, stats, `t${index}`);
        if (reply === null) return dropped(final ? 'critic rejected' : 'critic rejected an earlier turn');
        if (final) {
          optimal = reply.text;
          reactionVerdict = reply.reaction;
        } else history.push({ role: 'assistant', content: reply.text });
      }
      const plainOptimal = neutraliseFormatting(optimal);
      const judged: JudgedOriginal[] = [];
      for (const original of item.originals) {
        const plainOriginal = neutraliseFormatting(original.text);
        const first = await steps.judge(history, plainOptimal, plainOriginal);
        const second = await steps.judge(history, plainOriginal, plainOptimal);
        const judging: BothOrders = { optimalFirst: verdictOf(first, 'A'), optimalSecond: verdictOf(second, 'B') };
        stats.pairs.push({ model: original.model, consistent: isPositionConsistent(judging), won: pairOutcome(judging).kind === 'win' });
        judged.push({ side: original.side, text: original.text, judging });
      }
      let rejected: string | null;
      let rejected2: string | null;
      let prefStrength: 'strong' | 'medium' | 'weak';
      if (item.subset === 'reactions') {
        const decision = decideReactionRow({
          fixesDefect: reactionVerdict?.fixesDefect ?? false,
          complaint: reactionVerdict?.complaint ?? 'mistaken',
          judging: judged[0]!.judging,
        });
        if (!decision.keep) return dropped(decision.reason);
        [rejected, rejected2, prefStrength] = [item.originals[0]!.text, null, decision.prefStrength];
      } else {
        const decision = decideArenaRow(judged);
        if (!decision.keep) return dropped(decision.reason);
        [rejected, rejected2, prefStrength] = [decision.rejected.text, decision.rejected2?.text ?? null, decision.prefStrength];
      }
      const { styled, sameContent } = await steps.style(optimal);
      if (!sameContent) return dropped('styled variant changed the content');
      const row = maxxRow({
        subset: item.subset,
        sourceId: item.sourceId,
        messages: history,
        optimal,
        optimalStyled: styled,
        rejected,
        rejected2,
        prefStrength,
        defectTags: item.reaction?.tags,
      });
      return this.record(item, 'kept', null, row, stats);
    } catch (error) {
      if (error instanceof MalformedAnswerError) return dropped('malformed structured output');
      throw error;
    }
  }

  /** Draft, cross-review and revision, then the critic's gate; a rejected draft is written again, up to the limit. */
  private async gatedReply(
    stepsFor: (tag: string) => MaxxSteps,
    history: readonly ChatMessage[],
    language: string,
    reaction: ReactionContext | undefined,
    stats: MaxxItemStats,
    turnTag: string,
  ): Promise<{ text: string; reaction?: { fixesDefect: boolean; complaint: 'valid' | 'partly' | 'mistaken' } } | null> {
    for (let attempt = 1; attempt <= this.settings.gateAttempts; attempt++) {
      const tagged = stepsFor(`${turnTag}#${attempt}`);
      const draft = await tagged.draft(history, language);
      const defects = await tagged.review(history, draft);
      const reply = defects.length > 0 ? await tagged.revise(history, draft, defects, language) : draft;
      const verdict = await tagged.critic(history, reply, language, reaction);
      stats.critic.calls += 1;
      const passes = failedCriteria(verdict.rubric).length === 0 && (reaction === undefined || verdict.reaction?.fixesDefect === true);
      if (passes) {
        stats.critic.passes += 1;
        return { text: reply, reaction: verdict.reaction };
      }
    }
    return null;
  }

  /** A step's call: from the cache when the same request was answered before, else from its role's model (retried). */
  private callModel(accounting: Accounting, tag: string): CallModel {
    return (call) => {
      const role = this.roles[call.role];
      const key = createHash('sha256')
        .update(JSON.stringify([role.id, `${call.step}@${tag}`, call.messages, call.responseFormat?.schema ?? null]))
        .digest('hex');
      accounting.calls += 1;
      // Two items of this process asking the same thing at once (the first turn of a voted duel and of
      // its disliked answer) share one call.
      const pending = this.inFlight.get(key);
      if (pending) {
        accounting.cachedCalls += 1;
        return pending;
      }
      const answer = this.answer(key, call, accounting).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, answer);
      return answer;
    };
  }

  /** A call's answer from the store's cache, else from its role's model (retried), then stored. */
  private async answer(key: string, call: StepCall, accounting: Accounting): Promise<string> {
    const role = this.roles[call.role];
    const cached = await this.store.maxx.findCall(key);
    if (cached) {
      accounting.cachedCalls += 1;
      return cached.response;
    }
    if (this.settings.maxCostUsd !== undefined && accounting.spentUsd >= this.settings.maxCostUsd) {
      throw new CostLimitReached(`spent $${accounting.spentUsd.toFixed(4)} of --max-cost $${this.settings.maxCostUsd}`);
    }
    const limit = role.provider && this.providerLimits.get(role.provider.key);
    const send = () =>
      completeModelCall(
        role.client,
        { messages: call.messages, ...(call.responseFormat ? { responseFormat: call.responseFormat } : {}) },
        this.settings.callTimeoutMs,
      );
    // The provider's slot is held for one attempt only: an attempt waiting out a backoff leaves it to others.
    const completion = await this.withRetries(() => (limit ? limit(send) : send()));
    const usage = accounting.tokens[call.role];
    usage.input += completion.usage?.inputTokens ?? 0;
    usage.output += completion.usage?.outputTokens ?? 0;
    if (role.pricing) {
      const cost =
        ((completion.usage?.inputTokens ?? 0) * role.pricing.inputPerMillionUsd +
          (completion.usage?.outputTokens ?? 0) * role.pricing.outputPerMillionUsd) /
        1_000_000;
      accounting.costUsd[call.role] += cost;
      accounting.spentUsd += cost;
    }
    await this.store.maxx.saveCall({
      key,
      role: call.role,
      step: call.step,
      modelId: role.id,
      response: completion.text,
      inputTokens: completion.usage?.inputTokens ?? null,
      outputTokens: completion.usage?.outputTokens ?? null,
      createdAt: this.runtime.now().toISOString(),
    });
    return completion.text;
  }

  /** Retries retryable provider failures with exponential backoff, or the upstream's Retry-After; the last failure is thrown. */
  private async withRetries<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (!ProviderCallError.isInstance(error) || !error.isRetryable || attempt >= this.settings.callAttempts) throw error;
        // The upstream's own Retry-After when it gives one (a 429 says when the quota comes back), bounded.
        const backoff = this.settings.backoffMs * 2 ** (attempt - 1);
        await this.sleep(Math.min(MAX_RETRY_WAIT_MS, Math.max(backoff, error.retryAfterMs ?? 0)));
      }
    }
  }

  private record(
    item: MaxxItem,
    status: 'kept' | 'dropped',
    reason: string | null,
    row: Record<string, unknown> | null,
    stats: MaxxItemStats,
  ): MaxxItemRecord {
    return {
      itemKey: this.itemKey(item),
      runKey: this.runKey,
      subset: item.subset,
      sourceId: item.sourceId,
      language: item.language,
      status,
      reason,
      row,
      stats,
      createdAt: this.runtime.now().toISOString(),
    };
  }
}

/** The files of an optimised set (Parquet and JSONL per subset) and its card, from recorded outcomes. */
function writeMaxxSet(
  records: readonly MaxxItemRecord[],
  roles: Record<string, string>,
  outDir: string,
  emptyBecause?: string,
): { cardPath: string; rows: Record<MaxxSubset, number> } {
  const rows = Object.fromEntries(MAXX_SUBSETS.map((subset) => [subset, 0])) as Record<MaxxSubset, number>;
  const encodings = new Utf8Encodings();
  for (const subset of MAXX_SUBSETS) {
    const folder = join(outDir, subset);
    mkdirSync(folder, { recursive: true });
    const writers: DatasetFileWriter[] = [
      parquetFileWriter(MAXX_COLUMNS, { folder, rowGroupRows: 1000, fileRows: 100_000 }, encodings),
      jsonlFileWriter(join(folder, 'train.jsonl'), MAXX_COLUMNS),
    ];
    for (const record of records) {
      if (record.subset !== subset || record.status !== 'kept' || record.row === null) continue;
      for (const writer of writers) writer.add(record.row);
      rows[subset] += 1;
    }
    for (const writer of writers) writer.finish();
  }
  const cardPath = join(outDir, 'README.md');
  writeFileSync(cardPath, buildMaxxCard(records, { roles, emptyBecause }));
  return { cardPath, rows };
}

/**
 * The last optimised set assembled by `agora maxx --out`, written again into `outDir` from the
 * store (for `agora export --optimised`); null when none was ever built.
 */
export async function writeLatestOptimisedSet(
  store: Store,
  outDir: string,
): Promise<{ cardPath: string; rows: Record<MaxxSubset, number> } | null> {
  const latest = await store.datasets.latestBuild('optimised');
  if (!latest) return null;
  return writeMaxxSet(await store.maxx.listItems(latest.summary.runKey), latest.summary.models, outDir);
}

interface Accounting {
  calls: number;
  cachedCalls: number;
  tokens: Record<MaxxRole, { input: number; output: number }>;
  costUsd: Record<MaxxRole, number>;
  spentUsd: number;
}

function newAccounting(): Accounting {
  return {
    calls: 0,
    cachedCalls: 0,
    tokens: Object.fromEntries(MAXX_ROLES.map((role) => [role, { input: 0, output: 0 }])) as Accounting['tokens'],
    costUsd: Object.fromEntries(MAXX_ROLES.map((role) => [role, 0])) as Accounting['costUsd'],
    spentUsd: 0,
  };
}

/**
 * The judge on the two original replies of the item's turn, in both orders, formatting removed, next
 * to what the visitor preferred. The earlier turns are given by their user messages only: each side
 * had its own earlier replies. An answer that is not the JSON asked for leaves the pair out.
 */
async function calibrationOf(item: MaxxItem, steps: MaxxSteps): Promise<CalibrationRecord> {
  const turns = item.conversation.turns.slice(0, item.turnIndex + 1);
  const history: ChatMessage[] = turns.map((turn) => ({ role: 'user', content: turn.prompt }));
  const [a, b] = [neutraliseFormatting(turns.at(-1)!.a.text), neutraliseFormatting(turns.at(-1)!.b.text)];
  const side = (better: 'A' | 'B' | 'tie', shownAsA: 'a' | 'b'): SidePreference =>
    better === 'tie' ? 'tie' : (better === 'A') === (shownAsA === 'a') ? 'a' : 'b';
  try {
    const aFirst = await steps.judge(history, a, b);
    const bFirst = await steps.judge(history, b, a);
    return {
      human: item.visitorPreference,
      judge: judgeSidePreference({ aFirst: side(aFirst.better, 'a'), bFirst: side(bFirst.better, 'b') }),
    };
  } catch (error) {
    if (error instanceof MalformedAnswerError) return { human: item.visitorPreference, judge: null };
    throw error;
  }
}

/** A judge's answer on one ordering, mapped to the replies: the optimal was shown at `optimalAt`. */
function verdictOf(answer: { better: 'A' | 'B' | 'tie'; confidence: number }, optimalAt: 'A' | 'B'): PairVerdict {
  const preferred = answer.better === 'tie' ? 'tie' : answer.better === optimalAt ? 'optimal' : 'original';
  return { preferred, confidence: answer.confidence };
}

/** The items of one conversation: its vote (an arena row about its last turn) and each disliked answer. */
function itemsOf(conversation: ExportableConversation, context: ReturnType<typeof rowContext>): MaxxItem[] {
  const prepared = prepareConversation(conversation, context);
  const languageOf = (index: number) => conversation.promptLanguages[index] ?? conversation.languages?.[0] ?? 'und';
  const items: MaxxItem[] = [];
  const { turns } = conversation;
  if (conversation.vote !== null && turns.length > 0) {
    const last = turns.length - 1;
    const subset = subsetOfVote(conversation.vote.choice);
    items.push({
      key: `${conversation.createdAt}|${prepared.pairId}|${subset}`,
      subset,
      sourceId: prepared.pairId,
      language: languageOf(last),
      conversation,
      turnIndex: last,
      originals: (['a', 'b'] as const).map((side) => ({ side, model: turns[last]![side].modelId, text: turns[last]![side].text })),
      visitorPreference: voteSidePreference(conversation.vote.choice),
    });
  }
  for (const reaction of conversation.reactions) {
    if (reaction.liked) continue;
    const index = turns.findIndex((turn) => turn.turn === reaction.turn);
    if (index < 0) continue;
    const msgIndex = (reaction.side === 'a' ? prepared.headA : prepared.headB) + 2 * index + 1;
    const sourceId = `${reaction.side === 'a' ? prepared.convAId : prepared.convBId}-${msgIndex}`;
    const disliked = turns[index]![reaction.side];
    items.push({
      key: `${conversation.createdAt}|${prepared.pairId}|reactions|${sourceId}`,
      subset: 'reactions',
      sourceId,
      language: languageOf(index),
      conversation,
      turnIndex: index,
      originals: [{ side: reaction.side, model: disliked.modelId, text: disliked.text }],
      // A comment with personal data is not sent to the role models either.
      reaction: { disliked: disliked.text, tags: reaction.tags, comment: publishableComment(reaction.comment) },
      visitorPreference: dislikeSidePreference(
        reaction.side,
        conversation.reactions.some((other) => other.turn === reaction.turn && other.side !== reaction.side && !other.liked),
      ),
    });
  }
  return items;
}

/** One limiter per provider endpoint that declares a limit: the lowest `max_concurrency` of the role models it serves. */
function providerLimits(models: readonly MaxxRoleModel[]): Map<string, LimitFunction> {
  const lowest = new Map<string, number>();
  for (const { provider } of models) {
    if (provider?.maxConcurrency === undefined) continue;
    lowest.set(provider.key, Math.min(provider.maxConcurrency, lowest.get(provider.key) ?? Infinity));
  }
  return new Map([...lowest].map(([key, limit]) => [key, pLimit(limit)]));
}

/** Marks the stand-in's optimal reply, so that its judge can prefer it wherever it is shown. */
const STAND_IN_OPTIMAL = '[optimal]';
/** About what a model writes in the free-text fields of a structured answer. */
const STAND_IN_NOTE = 'The reply answers the question correctly and completely, in the right language, with no invented fact.';

/**
 * The models as the plan imagines them: the generator writes as much as the longer original reply of
 * the turn, the reviewer finds one defect, the critic passes, the judge prefers the optimal reply.
 * Each call's tokens are counted as a real call's would be.
 */
function standInCall(item: MaxxItem, estimate: Accounting, countTokens: (text: string) => number): CallModel {
  return (call) => {
    const lastUser = call.messages.findLast(
      (message) => message.role === 'user' && item.conversation.turns.some((turn) => turn.prompt === message.content),
    );
    const turn =
      item.conversation.turns.find((candidate) => candidate.prompt === lastUser?.content) ?? item.conversation.turns[item.turnIndex]!;
    const reply = `${turn.a.text.length >= turn.b.text.length ? turn.a.text : turn.b.text} ${STAND_IN_OPTIMAL}`;
    const userText = call.messages.at(-1)?.content ?? '';
    const answer = ((): string => {
      switch (call.step) {
        case 'draft':
        case 'revise':
        case 'style':
          return reply;
        case 'review':
          return JSON.stringify({ defects: [STAND_IN_NOTE] });
        case 'critic':
        case 'critic-reaction':
          return JSON.stringify({
            correct: true,
            complete: true,
            follows_instructions: true,
            right_language: true,
            no_invented_facts: true,
            fixes_defect: true,
            complaint: 'valid',
            notes: STAND_IN_NOTE,
          });
        case 'judge': {
          // Reply A only: the conversation before it may hold an earlier optimal reply.
          const optimalFirst = userText
            .slice(userText.lastIndexOf('Reply A:'), userText.lastIndexOf('Reply B:'))
            .includes(STAND_IN_OPTIMAL);
          return JSON.stringify({ better: optimalFirst ? 'A' : 'B', confidence: 5, reason: STAND_IN_NOTE });
        }
        default:
          return JSON.stringify({ same_content: true, differences: [] });
      }
    })();
    estimate.calls += 1;
    estimate.tokens[call.role].input += call.messages.reduce((sum, message) => sum + countTokens(message.content), 0);
    estimate.tokens[call.role].output += countTokens(answer);
    return Promise.resolve(answer);
  };
}

function randomSalt(): string {
  return randomBytes(32).toString('hex');
}
