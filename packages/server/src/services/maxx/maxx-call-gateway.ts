import { createHash } from 'node:crypto';
import pLimit, { type LimitFunction } from 'p-limit';
import { type CallModel, IncompleteAnswerError, MAXX_ROLES, type MaxxRole, type StepCall } from '../../adapters/maxx-steps';
import type { Store } from '../../db/unit-of-work';
import { completeModelCall } from '../../providers/complete-model-call';
import { ProviderCallError } from '../../providers/spec';
import type { Runtime } from '../ports/runtime';
import {
  MAX_RETRY_OUTPUT_TOKENS,
  type MaxxCallSettings,
  type MaxxRoleModel,
  type MaxxRoles,
  allRoleModels,
  callSettingsOf,
} from './maxx-roles';

/**
 * The one door of the optimised set to its models: every step's call goes through here, which picks
 * the role's model and its call settings, answers from the store's cache when the same request was
 * answered before, shares a call that two items ask at once, keeps the run within its spending limit
 * and each endpoint within its concurrency, retries what the provider may answer later, and never
 * lets an incomplete answer through (docs/datasets.md#maxx-calls).
 */

export interface GatewaySettings {
  /** Bound of one call, retries included in none of it. */
  callTimeoutMs: number;
  /** Attempts of a retryable failure (429, 5xx, cut stream) before the item is left for a later run. */
  callAttempts: number;
  /** Base of the exponential backoff between attempts. */
  backoffMs: number;
  /** Spend (US dollars) at which this run sends no more calls; unset: no limit. */
  maxCostUsd?: number | undefined;
}

/** The run reached its spending limit: no call is sent after it. */
export class CostLimitReached extends Error {
  override readonly name = 'CostLimitReached';
}

/** What a run spent and sent, role by role. */
export interface Accounting {
  /** Step calls asked, and those answered from the cache or shared with another item's same call. */
  calls: number;
  cachedCalls: number;
  /** Requests sent to the providers: every attempt, and the second ask of an incomplete answer. */
  requests: number;
  /** Requests (or, in a dry run, estimated calls) by step. */
  byStep: Record<string, number>;
  tokens: Record<MaxxRole, { input: number; output: number }>;
  costUsd: Record<MaxxRole, number>;
  spentUsd: number;
}

export function newAccounting(): Accounting {
  return {
    calls: 0,
    cachedCalls: 0,
    requests: 0,
    byStep: {},
    tokens: Object.fromEntries(MAXX_ROLES.map((role) => [role, { input: 0, output: 0 }])) as Accounting['tokens'],
    costUsd: Object.fromEntries(MAXX_ROLES.map((role) => [role, 0])) as Accounting['costUsd'],
    spentUsd: 0,
  };
}

/** What one item's calls noticed, for its stats. */
export interface CallNotes {
  /** Answers that did not end on a normal stop and were asked again with a larger budget. */
  incompleteAnswers: number;
}

/** The longest wait between two attempts of a call, whatever the upstream asks. */
const MAX_RETRY_WAIT_MS = 120_000;

/** The model a step's call goes to: its role's, or for the judge step the panel's judge it names. */
export function modelOfCall(roles: MaxxRoles, call: Pick<StepCall, 'role' | 'judge'>): MaxxRoleModel {
  if (call.role === 'judge') {
    const judge = roles.judges[call.judge ?? 0];
    if (!judge) throw new Error(`no judge ${call.judge ?? 0} in a panel of ${roles.judges.length}`);
    return judge;
  }
  return roles[call.role];
}

/**
 * The cache key of a call: the model, the step and its attempt tag, the messages, the output format
 * and the settings. A call sent with another budget or temperature is another call.
 */
export function callKey(model: MaxxRoleModel, tag: string, call: StepCall, settings: MaxxCallSettings): string {
  return createHash('sha256')
    .update(JSON.stringify([model.id, `${call.step}@${tag}`, call.messages, call.responseFormat?.schema ?? null, settings]))
    .digest('hex');
}

export class MaxxCallGateway {
  /** Calls being answered in this process, by cache key. */
  private readonly inFlight = new Map<string, Promise<string>>();
  /** The requests in flight to each provider endpoint, bounded by the lowest limit its role models declare. */
  private readonly providerLimits: Map<string, LimitFunction>;

  constructor(
    private readonly store: Store,
    private readonly roles: MaxxRoles,
    private readonly settings: GatewaySettings,
    private readonly runtime: Pick<Runtime, 'now'>,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {
    this.providerLimits = providerLimits(allRoleModels(roles));
  }

  /** The step calls of one item's attempt: `tag` names the turn and the attempt, so that a new attempt is a new call. */
  caller(accounting: Accounting, tag: string, notes: CallNotes): CallModel {
    return (call) => {
      const model = modelOfCall(this.roles, call);
      const settings = callSettingsOf(call.role, model, tag);
      const key = callKey(model, tag, call, settings);
      accounting.calls += 1;
      // Two items of this process asking the same thing at once (the first turn of a voted duel and of
      // its disliked answer) share one call.
      const pending = this.inFlight.get(key);
      if (pending) {
        accounting.cachedCalls += 1;
        return pending;
      }
      const answer = this.answer(key, call, model, settings, accounting, notes).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, answer);
      return answer;
    };
  }

  /**
   * A call's complete answer: from the store's cache, else from the model (retried). An answer that
   * did not end on a normal stop is asked once more with twice the budget, then refused as
   * {@link IncompleteAnswerError}; an answer the step cannot use is returned but not kept.
   */
  private async answer(
    key: string,
    call: StepCall,
    model: MaxxRoleModel,
    settings: MaxxCallSettings,
    accounting: Accounting,
    notes: CallNotes,
  ): Promise<string> {
    const cached = await this.store.maxx.findCall(key);
    if (cached) {
      accounting.cachedCalls += 1;
      return cached.response;
    }
    // An answer already known to be cut (an earlier run's) is not asked for again: straight to the larger budget.
    const known = await this.store.maxx.incompleteCall(key);
    const first = known === undefined ? await this.send(key, call, model, settings, accounting) : { text: '', finishReason: known };
    if (first.finishReason === 'stop') return first.text;
    notes.incompleteAnswers += 1;
    const budget = Math.max(settings.maxOutputTokens, Math.min(MAX_RETRY_OUTPUT_TOKENS, settings.maxOutputTokens * 2));
    const incomplete = (why: string) =>
      new IncompleteAnswerError(`${call.role} (${call.step}, ${model.id}) ended on "${first.finishReason}"; ${why}`, first.finishReason);
    if (budget === settings.maxOutputTokens) throw incomplete(`its budget of ${budget} tokens is already the largest asked`);
    const larger = { ...settings, maxOutputTokens: budget };
    const largerKey = callKey(model, key, call, larger);
    const cachedLarger = await this.store.maxx.findCall(largerKey);
    let again: { text: string; finishReason: string };
    try {
      again = cachedLarger
        ? { text: cachedLarger.response, finishReason: cachedLarger.finishReason }
        : await this.send(largerKey, call, model, larger, accounting);
    } catch (error) {
      // A provider that refuses the larger budget (past the model's own maximum) leaves the answer cut.
      if (ProviderCallError.isInstance(error) && !error.isRetryable && error.statusCode !== undefined && error.statusCode < 500)
        throw incomplete(`the provider refused ${budget} output tokens (${error.statusCode})`);
      throw error;
    }
    if (again.finishReason === 'stop') return again.text;
    throw incomplete(`and on "${again.finishReason}" again with ${budget} output tokens`);
  }

  /** Sends one call (retried on retryable failures), counts its tokens and cost, and keeps it when usable. */
  private async send(
    key: string,
    call: StepCall,
    model: MaxxRoleModel,
    settings: MaxxCallSettings,
    accounting: Accounting,
  ): Promise<{ text: string; finishReason: string }> {
    if (this.settings.maxCostUsd !== undefined && accounting.spentUsd >= this.settings.maxCostUsd) {
      throw new CostLimitReached(`spent $${accounting.spentUsd.toFixed(4)} of --max-cost $${this.settings.maxCostUsd}`);
    }
    const limit = model.provider && this.providerLimits.get(model.provider.key);
    const request = () => {
      accounting.requests += 1;
      accounting.byStep[call.step] = (accounting.byStep[call.step] ?? 0) + 1;
      return completeModelCall(
        model.client,
        {
          messages: call.messages,
          maxOutputTokens: settings.maxOutputTokens,
          temperature: settings.temperature,
          ...(settings.seed === null ? {} : { seed: settings.seed }),
          ...(call.responseFormat ? { responseFormat: call.responseFormat } : {}),
        },
        this.settings.callTimeoutMs,
      );
    };
    // The provider's slot is held for one attempt only: an attempt waiting out a backoff leaves it to others.
    const completion = await this.withRetries(() => (limit ? limit(request) : request()));
    const usage = accounting.tokens[call.role];
    usage.input += completion.usage?.inputTokens ?? 0;
    usage.output += completion.usage?.outputTokens ?? 0;
    if (model.pricing) {
      const cost =
        ((completion.usage?.inputTokens ?? 0) * model.pricing.inputPerMillionUsd +
          (completion.usage?.outputTokens ?? 0) * model.pricing.outputPerMillionUsd) /
        1_000_000;
      accounting.costUsd[call.role] += cost;
      accounting.spentUsd += cost;
    }
    const complete = completion.finishReason === 'stop';
    // An unusable answer (not the JSON asked for) is not kept: a later run asks again instead of reading it back.
    if (!complete || call.accept === undefined || call.accept(completion.text)) {
      await this.store.maxx.saveCall({
        key,
        role: call.role,
        step: call.step,
        modelId: model.id,
        response: completion.text,
        inputTokens: completion.usage?.inputTokens ?? null,
        outputTokens: completion.usage?.outputTokens ?? null,
        createdAt: this.runtime.now().toISOString(),
        finishReason: completion.finishReason,
        settings,
      });
    }
    return { text: completion.text, finishReason: completion.finishReason };
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
