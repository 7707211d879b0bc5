import type { Side } from '@agora/contract';
import { drawReplacement, type RandomSource } from '../../domain/arena/pairing';
import { namesOwnIdentity } from '../../domain/arena/identity-leak';
import { servedModelDiffers } from '../../domain/arena/served-model';
import { type StyleCounts, countStyleElements } from '../../domain/ranking';
import type { ModelRegistry } from '../../providers/registry';
import { type ModelMessage, ProviderCallError } from '../../providers/spec';
import type { ArenaCatalogue } from '../arena-catalogue';
import type { ArenaMetrics } from '../ports/arena-metrics';
import { countTokensLocally, loadTokenCounter } from '../../adapters/local-token-count';
import { readAnswer } from './answer-reader';
import type { TurnStream } from './turn-stream';

/** What one side runs in a turn. */
export interface SidePlan {
  modelId: string;
  /** This side's earlier turns (user prompts and its own answers), oldest first. */
  history: ModelMessage[];
  /** Where a replacement may come from if the model fails before its first token (first turn, drawn models only). */
  replacementPool: string[];
}

export interface TurnPlan {
  turn: number;
  prompt: string;
  sides: Record<Side, SidePlan>;
}

/** One upstream failure, as stored per model for operators. */
export interface UpstreamFailure {
  modelId: string;
  error: ProviderCallError;
  replaced: boolean;
  at: Date;
}

/** How one side's part of the turn ended. */
export interface SideOutcome {
  side: Side;
  modelId: string;
  text: string;
  reasoning: string;
  outputTokens: number | null;
  outputTokensSource: 'provider' | 'local' | null;
  finishReason: string | null;
  ttftMs: number | null;
  durationMs: number | null;
  status: 'complete' | 'failed' | 'cancelled';
  identityLeak: boolean;
  /** The provider said it served another model than the catalogue's (domain/arena/served-model.ts). */
  servedModelMismatch: boolean;
  /** The provider's metadata of the last call. */
  metadata: UpstreamMetadata;
  /** Style counts of the answer for style-controlled rankings, counted when it completes. */
  style: StyleCounts | null;
  failures: UpstreamFailure[];
}

export interface TurnOutcome {
  status: 'complete' | 'failed';
  sides: Record<Side, SideOutcome>;
  /** The failure that ended the turn (the first side to fail). */
  failure: ProviderCallError | null;
}

export interface TurnRunnerDependencies {
  registry: ModelRegistry;
  catalogue: ArenaCatalogue;
  metrics: ArenaMetrics;
  random: RandomSource;
  now: () => Date;
  /** Retries of one call, before its first token and for retryable errors only. */
  retries: number;
  /** Where each upstream call is logged, with the provider's metadata (never sent to clients). */
  logUpstream?: (entry: UpstreamLogEntry) => void;
}

/** One upstream call as operators see it in the logs. */
export interface UpstreamLogEntry {
  model: string;
  provider: string;
  status: 'complete' | 'failed';
  kind?: string;
  statusCode?: number;
  responseBody?: string;
  ttftMs: number | null;
  durationMs: number | null;
  outputTokens?: number | null;
  finishReason?: string | null;
  /** What the provider said about itself: its response id, the model it actually served, its request id. */
  metadata: UpstreamMetadata;
}

export interface UpstreamMetadata {
  responseId?: string;
  servedModel?: string;
  requestId?: string;
}

/** Raised inside a side when the other side's failure cancelled the turn. */
class TurnCancelled extends Error {
  override readonly name = 'TurnCancelled';
}

const sides: readonly Side[] = ['a', 'b'];

/**
 * Runs both sides of a turn at once under one abort signal (which `cancel` also aborts) and
 * appends their frames to the turn's stream. When either side fails for good, the signal aborts
 * the other side's upstream request, so that no answer is ever completed one-sided. The caller
 * stores the outcome and then closes the stream (`turn-error`, `turn-end`), so that a client seeing
 * `turn-end` can vote.
 */
export async function runTurn(
  plan: TurnPlan,
  stream: TurnStream,
  dependencies: TurnRunnerDependencies,
  cancel?: AbortSignal,
): Promise<TurnOutcome> {
  stream.push({ type: 'turn-start', turn: plan.turn });
  const turnController = new AbortController();
  // The caller gave up on the turn (its duel could not be stored): both upstream requests stop.
  cancel?.addEventListener('abort', () => turnController.abort(new TurnCancelled()), { once: true });
  const inUse = new Set([plan.sides.a.modelId, plan.sides.b.modelId]);
  const [a, b] = await Promise.all(sides.map((side) => runSide(side, plan, stream, turnController, inUse, dependencies)));
  const reason: unknown = turnController.signal.reason;
  const failure = ProviderCallError.isInstance(reason) ? reason : null;
  return { status: failure ? 'failed' : 'complete', sides: { a: a!, b: b! }, failure };
}

/** One side's run in progress: its outcome so far, and what is left of its retries and its replacement. */
interface SideRun {
  plan: SidePlan;
  outcome: SideOutcome;
  /** Retries of the current model so far. */
  attempt: number;
  replacementsLeft: number;
  /** The turn's models, which a replacement may not be. */
  inUse: Set<string>;
}

async function runSide(
  side: Side,
  plan: TurnPlan,
  stream: TurnStream,
  turnController: AbortController,
  inUse: Set<string>,
  dependencies: TurnRunnerDependencies,
): Promise<SideOutcome> {
  const sidePlan = plan.sides[side];
  const run: SideRun = {
    plan: sidePlan,
    outcome: emptyOutcome(side, sidePlan.modelId),
    attempt: 0,
    replacementsLeft: sidePlan.replacementPool.length > 0 ? 1 : 0,
    inUse,
  };
  const { outcome } = run;
  for (;;) {
    try {
      await streamOnce(outcome, sidePlan, plan.prompt, stream, turnController.signal, dependencies);
      await completeSide(outcome, stream, dependencies);
      return outcome;
    } catch (error) {
      if (error instanceof TurnCancelled || !ProviderCallError.isInstance(error)) {
        outcome.status = 'cancelled';
        if (!(error instanceof TurnCancelled)) turnController.abort(internalFailure(error));
        return outcome;
      }
      if (goOnAfterFailure(run, error, turnController.signal, dependencies)) continue;
      outcome.status = 'failed';
      if (!turnController.signal.aborted) turnController.abort(error);
      return outcome;
    }
  }
}

function emptyOutcome(side: Side, modelId: string): SideOutcome {
  return {
    side,
    modelId,
    text: '',
    reasoning: '',
    outputTokens: null,
    outputTokensSource: null,
    finishReason: null,
    ttftMs: null,
    durationMs: null,
    status: 'failed',
    identityLeak: false,
    servedModelMismatch: false,
    metadata: {},
    style: null,
    failures: [],
  };
}

/** A side's answer arrived whole: what is checked and counted on it, then its `side-end` frame. */
async function completeSide(outcome: SideOutcome, stream: TurnStream, dependencies: TurnRunnerDependencies): Promise<void> {
  outcome.status = 'complete';
  outcome.identityLeak = namesOwnIdentity(`${outcome.text}\n${outcome.reasoning}`, dependencies.catalogue.lexicon(outcome.modelId));
  outcome.servedModelMismatch = servedModelDiffers(dependencies.catalogue.providerModel(outcome.modelId), outcome.metadata.servedModel);
  if (outcome.servedModelMismatch) dependencies.metrics.servedModelMismatch(outcome.modelId);
  // Tokens counted here with one tokenizer for every model, so that lengths compare across vendors.
  outcome.style = countStyleElements([outcome.text], await loadTokenCounter());
  stream.push({ type: 'side-end', side: outcome.side, output_tokens: outcome.outputTokens });
  logCall(dependencies, outcome, 'complete');
}

/**
 * Records a failed call of a side, and says whether the side goes on: before its first token only,
 * and while the turn still runs, the same model again (a retryable error, within the retries) or,
 * once, a replacement drawn from the side's pool.
 */
function goOnAfterFailure(run: SideRun, error: ProviderCallError, turnSignal: AbortSignal, dependencies: TurnRunnerDependencies): boolean {
  const { outcome } = run;
  const failure: UpstreamFailure = { modelId: outcome.modelId, error, replaced: false, at: dependencies.now() };
  outcome.failures.push(failure);
  dependencies.metrics.upstreamFailed(outcome.modelId, error.kind);
  logCall(dependencies, outcome, 'failed', error);
  const beforeFirstToken = outcome.ttftMs === null;
  if (beforeFirstToken && error.isRetryable && run.attempt < dependencies.retries && !turnSignal.aborted) {
    run.attempt += 1;
    return true;
  }
  const replacement =
    beforeFirstToken && run.replacementsLeft > 0 && !turnSignal.aborted
      ? drawReplacement({ modelId: outcome.modelId, replacementPool: run.plan.replacementPool }, [...run.inUse], dependencies.random)
      : undefined;
  if (!replacement) return false;
  failure.replaced = true;
  run.replacementsLeft -= 1;
  run.attempt = 0;
  run.inUse.add(replacement);
  dependencies.metrics.modelReplaced(outcome.modelId);
  outcome.modelId = replacement;
  return true;
}

function logCall(
  dependencies: TurnRunnerDependencies,
  outcome: SideOutcome,
  status: 'complete' | 'failed',
  error?: ProviderCallError,
): void {
  dependencies.logUpstream?.({
    model: outcome.modelId,
    provider: dependencies.registry.get(outcome.modelId).provider,
    status,
    ...(error
      ? { kind: error.kind, statusCode: error.statusCode, responseBody: error.responseBody }
      : { outputTokens: outcome.outputTokens, finishReason: outcome.finishReason }),
    ttftMs: outcome.ttftMs,
    durationMs: outcome.durationMs,
    metadata: outcome.metadata,
  });
}

function internalFailure(cause: unknown): ProviderCallError {
  return new ProviderCallError({ kind: 'stream_cut', message: 'the model call failed unexpectedly', isRetryable: true, cause });
}

function buildMessages(sidePlan: SidePlan, systemPrompt: string | undefined, prompt: string): ModelMessage[] {
  const system: ModelMessage[] = systemPrompt ? [{ role: 'system', content: systemPrompt }] : [];
  return [...system, ...sidePlan.history, { role: 'user', content: prompt }];
}

/** One upstream call of one side, with its first-token and total timeouts. Throws on any failure. */
async function streamOnce(
  outcome: SideOutcome,
  sidePlan: SidePlan,
  prompt: string,
  stream: TurnStream,
  turnSignal: AbortSignal,
  dependencies: TurnRunnerDependencies,
): Promise<void> {
  const options = dependencies.catalogue.callOptions(outcome.modelId);
  const controller = new AbortController();
  const onTurnAbort = () => controller.abort(new TurnCancelled());
  if (turnSignal.aborted) throw new TurnCancelled();
  turnSignal.addEventListener('abort', onTurnAbort, { once: true });
  const firstTokenTimer = abortAfter(controller, 'first_token_timeout', options.firstTokenTimeoutMs);
  const totalTimer = abortAfter(controller, 'total_timeout', options.totalTimeoutMs);
  const startedAt = performance.now();
  const onFirstToken = () => {
    outcome.ttftMs = Math.round(performance.now() - startedAt);
    clearTimeout(firstTokenTimer);
    dependencies.metrics.upstreamFirstToken(outcome.modelId, performance.now() - startedAt);
  };
  let usageTokens: number | undefined;
  let completed = false;
  try {
    const result = await dependencies.registry.get(outcome.modelId).doStream({
      messages: buildMessages(sidePlan, options.systemPrompt, prompt),
      maxOutputTokens: options.maxOutputTokens,
      temperature: options.temperature,
      abortSignal: controller.signal,
    });
    outcome.metadata = { requestId: result.response?.headers?.['x-request-id'] ?? result.response?.headers?.['request-id'] };
    usageTokens = await readAnswer(result.stream, outcome, stream, controller.signal, onFirstToken);
    throwIfEmpty(outcome);
    completed = true;
  } catch (error) {
    throw controller.signal.aborted ? controller.signal.reason : error;
  } finally {
    clearTimeout(firstTokenTimer);
    clearTimeout(totalTimer);
    turnSignal.removeEventListener('abort', onTurnAbort);
    if (!completed && !controller.signal.aborted) controller.abort(new TurnCancelled());
  }
  outcome.durationMs = Math.round(performance.now() - startedAt);
  dependencies.metrics.upstreamCompleted(outcome.modelId, outcome.durationMs);
  outcome.outputTokens = usageTokens ?? (await countTokensLocally(outcome.text + outcome.reasoning));
  outcome.outputTokensSource = usageTokens === undefined ? 'local' : 'provider';
}

/** Aborts the call with a timeout error after `ms`: no first token (retryable), or no end. */
function abortAfter(controller: AbortController, kind: 'first_token_timeout' | 'total_timeout', ms: number): ReturnType<typeof setTimeout> {
  return setTimeout(
    () =>
      controller.abort(
        new ProviderCallError({
          kind,
          message: `no ${kind === 'total_timeout' ? 'end' : 'first token'} within ${ms} ms`,
          isRetryable: kind === 'first_token_timeout',
        }),
      ),
    ms,
  );
}

/** An answer with no text (reasoning alone, or nothing) fails: nothing could be shown or voted on. */
function throwIfEmpty(outcome: SideOutcome): void {
  if (outcome.text.trim().length === 0) {
    throw new ProviderCallError({
      kind: outcome.finishReason === 'content-filter' ? 'content_filter' : 'empty_response',
      message: 'the model returned an empty answer',
      isRetryable: false,
    });
  }
}
