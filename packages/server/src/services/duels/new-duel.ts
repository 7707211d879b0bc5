import type { CreateDuelRequest, Side } from '@agora/contract';
import type { DuelRecord } from '../../db/repositories/duel.repository';
import { type DrawnSide, type PairingCandidate, type PairingOutcome, drawDuel } from '../../domain/arena/pairing';
import { AppError } from '../app-error';
import type { ArenaCatalogue } from '../arena-catalogue';
import { requireProof } from '../ports/proof-of-work';
import type { Requester } from '../ports/request-limiter';
import { hashVisitor } from '../visitor-hashes';
import { costlyModelsLimited, namesCostlyModel, planCostlyBudget, spendCostlyBudget, withoutCostlyModels } from './costly-models';
import type { DuelContext } from './duel-context';
import type { DuelServiceDependencies } from './duel-dependencies';
import { leaseFrom } from './turn-lease';
import type { TurnPlan } from './turn-runner';

/**
 * A new duel: two anonymous models drawn (or those the visitor chose), the duel and its first turn
 * stored in one commit while the models already answer. `cohort`: the operator's campaign this duel
 * belongs to (private cohorts stay out of exports).
 */
export async function createDuel(
  { dependencies, turns }: DuelContext,
  request: CreateDuelRequest,
  requester: Requester,
  cohort: string | null,
): Promise<{ id: string; turn: number }> {
  const { catalogue, runtime, store } = dependencies;
  checkChosenModels(catalogue, request.models);
  const { sides, chargesCostlyBudget } = await drawAndCharge(dependencies, request, requester);
  const startedAt = runtime.now();
  const now = startedAt.toISOString();
  const duel: DuelRecord = {
    id: runtime.newId(),
    visitorHash: hashVisitor(requester.visitorId),
    cohort,
    mode: request.mode,
    modelA: sides.a.modelId,
    modelB: sides.b.modelId,
    chosenModels: request.models ?? null,
    locale: request.locale ?? null,
    status: 'streaming',
    turnCount: 1,
    createdAt: now,
    chargesCostlyBudget,
  };
  // One commit for the duel and its first turn: both or neither. The models are called while it
  // commits, so that the first tokens do not wait for the store; the turn is stored only after the
  // duel is, and a duel that cannot be stored cancels its turn and fails the request.
  const committed = afterPendingTicks(() =>
    store.transaction((repositories) => repositories.duels.createWithFirstTurn(duel, request.prompt, leaseFrom(startedAt))),
  );
  const plan: TurnPlan = {
    turn: 1,
    prompt: request.prompt,
    sides: {
      // A replacement comes from the pools drawn from: costly models are in them only when the duel is charged.
      a: { modelId: duel.modelA, history: [], replacementPool: sides.a.replacementPool },
      b: { modelId: duel.modelB, history: [], replacementPool: sides.b.replacementPool },
    },
  };
  const cancel = new AbortController();
  const stream = turns.start(duel, plan, [], { committed, cancel: cancel.signal });
  try {
    await committed;
  } catch (error) {
    cancel.abort();
    turns.forget(duel.id, 1, stream);
    throw error;
  }
  return { id: duel.id, turn: 1 };
}

/**
 * The duel's two sides, and whether its prompts are charged to the requester's budget for costly
 * models: decided by what the request may reach and what the budget can pay (costly-models.ts),
 * never by the models drawn, which the requester must not be able to tell from any answer.
 */
async function drawAndCharge(
  dependencies: DuelServiceDependencies,
  request: CreateDuelRequest,
  requester: Requester,
): Promise<{ sides: Record<Side, DrawnSide>; chargesCostlyBudget: boolean }> {
  const plan = await planCostlyBudget(dependencies, request, requester);
  const draw = (candidates: readonly PairingCandidate[]) =>
    drawDuel(
      { mode: request.mode, chosen: request.models, pairWeight: dependencies.pairing?.pairWeight() },
      candidates,
      dependencies.runtime.random,
    );
  const outcome = draw(plan.candidates);
  if (!outcome.ok) throw drawFailure(outcome, request, dependencies.catalogue, plan.withoutCostly);
  // The proof is spent only by a request that would start a duel: a refused one keeps it.
  if (dependencies.proofOfWork) await requireProof(dependencies.proofOfWork, request.proof);
  if (plan.charge === 0) return { sides: outcome.sides, chargesCostlyBudget: false };
  const charge = await spendCostlyBudget(dependencies, plan.charge, requester);
  if (charge.allowed) return { sides: outcome.sides, chargesCostlyBudget: true };
  // Another request of the requester spent the budget since the plan: as if it had been spent before.
  if (namesCostlyModel(dependencies, request)) throw costlyModelsLimited(charge.resetMs);
  const cheaper = draw(withoutCostlyModels(plan.candidates));
  if (!cheaper.ok) throw costlyModelsLimited(charge.resetMs);
  return { sides: cheaper.sides, chargesCostlyBudget: false };
}

function checkChosenModels(catalogue: ArenaCatalogue, chosen: readonly string[] | undefined): void {
  if (!chosen) return;
  const unknown = chosen.filter((id) => !catalogue.has(id));
  if (unknown.length > 0) throw new AppError('unknown_models', `unknown models: ${unknown.join(', ')}`);
  const unavailable = chosen.filter((id) => !catalogue.isDrawable(id));
  if (unavailable.length > 0) throw new AppError('model_unavailable', `models not available right now: ${unavailable.join(', ')}`);
}

/** Why no pair could be drawn: unknown models, the budget for costly models spent, or too few models. */
function drawFailure(
  outcome: Extract<PairingOutcome, { ok: false }>,
  request: CreateDuelRequest,
  catalogue: ArenaCatalogue,
  withoutCostly: { resetMs: number } | undefined,
): AppError {
  if (outcome.reason === 'unknown_models') return new AppError('unknown_models', `unknown models: ${outcome.unknown.join(', ')}`);
  if (withoutCostly) return costlyModelsLimited(withoutCostly.resetMs);
  return new AppError(
    'no_models_available',
    `not enough models available for mode ${request.mode}${catalogue.setupHint() ? `: ${catalogue.setupHint()}` : ''}`,
  );
}

/**
 * Runs `work` once Node has run the `process.nextTick` callbacks pending by then, including those that
 * the code after this call queues (Node empties the tick queue before it runs promise reactions).
 * Node hands a pooled connection to an HTTP request on the next tick (`ClientRequest.onSocket`), and
 * only then writes it; a SQLite transaction started at once would run first, as one unbroken chain
 * of promise reactions (better-sqlite3 is synchronous), and the upstream requests would leave after
 * the commit.
 */
function afterPendingTicks<T>(work: () => Promise<T>): Promise<T> {
  return new Promise<void>((resolve) => process.nextTick(resolve)).then(work);
}
