import type { CreateDuelRequest } from '@agora/contract';
import { type PairingCandidate, drawnPools } from '../../domain/arena/pairing';
import type { AppError } from '../app-error';
import { rateLimitedError, type Requester } from '../ports/request-limiter';
import type { DuelServiceDependencies } from './duel-dependencies';

// The budget of characters each requester may send to models marked `expensive` (the limiter's
// `expensive_chars`). The models of a duel are hidden until the vote, so nothing the requester sees
// may depend on them: a request is charged for what it may reach as it reads (the models it names,
// the pools the others are drawn from), whether or not a costly model is drawn, and a duel's
// follow-ups are charged when its first prompt was. A charge, a refusal and its Retry-After then
// follow from the requester's own requests alone (issue 31: a probe naming the costly model after
// a random duel answered 429 exactly when that duel held it).

type CostlyModelBudget = Pick<DuelServiceDependencies, 'catalogue' | 'limiter'>;

const EXPENSIVE_LIMIT_MESSAGE = 'too many characters sent to costly models for now';

/** The requester's budget for costly models is spent: 429, until `resetMs`. */
export function costlyModelsLimited(resetMs: number): AppError {
  return rateLimitedError(EXPENSIVE_LIMIT_MESSAGE, resetMs);
}

/** How a new duel stands with the budget, before anything is drawn. */
export interface CostlyBudgetPlan {
  /** The models the draw may take: without the costly ones when the budget cannot pay for the prompt. */
  candidates: PairingCandidate[];
  /** Characters to charge when the duel starts (its prompt), or 0: nothing it may reach is costly, or the budget cannot pay. */
  charge: number;
  /** The budget cannot pay and the draw leaves costly models out: why a draw that fails failed, and until when. */
  withoutCostly?: { resetMs: number };
}

export const namesCostlyModel = ({ catalogue }: CostlyModelBudget, request: CreateDuelRequest): boolean =>
  request.models?.some((id) => catalogue.isExpensive(id)) ?? false;

export const withoutCostlyModels = (candidates: readonly PairingCandidate[]): PairingCandidate[] =>
  candidates.filter((model) => !model.expensive);

/**
 * Whether the request may send its prompt to a costly model, and what is left to pay for it: a
 * request naming one gets 429 when the budget cannot pay; one that may draw one draws among the
 * others instead, uncharged (a random duel never shows a spent budget as an error).
 */
export async function planCostlyBudget(
  budget: CostlyModelBudget,
  request: CreateDuelRequest,
  requester: Requester,
): Promise<CostlyBudgetPlan> {
  const candidates = budget.catalogue.candidates();
  const namesCostly = namesCostlyModel(budget, request);
  const drawsCostly = drawnPools({ mode: request.mode, chosen: request.models }, candidates).some((pool) =>
    pool.some((id) => budget.catalogue.isExpensive(id)),
  );
  if (!budget.limiter || !(namesCostly || drawsCostly)) return { candidates, charge: 0 };
  const left = await budget.limiter.remaining('expensive_chars', requester);
  if (left.points >= request.prompt.length) return { candidates, charge: request.prompt.length };
  if (namesCostly) throw costlyModelsLimited(left.resetMs);
  return { candidates: withoutCostlyModels(candidates), charge: 0, withoutCostly: { resetMs: left.resetMs } };
}

type Charge = { allowed: true } | { allowed: false; resetMs: number };

/** Counts `chars` against the budget, which the caller saw could pay for them (it was spent meanwhile: refused). */
export async function spendCostlyBudget({ limiter }: CostlyModelBudget, chars: number, requester: Requester): Promise<Charge> {
  if (!limiter) return { allowed: true };
  const decision = await limiter.consume('expensive_chars', requester, Math.max(1, chars));
  return decision.allowed ? decision : { allowed: false, resetMs: decision.retryAfterMs };
}

/** Counts `chars` against the budget when it can pay for them, and nothing when it cannot: a refused request spends nothing. */
export async function chargeCostlyBudget(budget: CostlyModelBudget, chars: number, requester: Requester): Promise<Charge> {
  if (!budget.limiter) return { allowed: true };
  const left = await budget.limiter.remaining('expensive_chars', requester);
  if (left.points < chars) return { allowed: false, resetMs: left.resetMs };
  return spendCostlyBudget(budget, chars, requester);
}
