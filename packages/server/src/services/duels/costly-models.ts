import type { CreateDuelRequest } from '@agora/contract';
import type { DuelRecord } from '../../db/repositories/duel.repository';
import type { PairingCandidate } from '../../domain/arena/pairing';
import type { AppError } from '../app-error';
import { rateLimitedError, type Requester } from '../ports/request-limiter';
import type { DuelServiceDependencies } from './duel-dependencies';

// The budget of characters each requester may send to models marked `expensive` (the limiter's
// `expensive_chars`): what a duel may draw, what a replacement may be, what a prompt spends.

type CostlyModelBudget = Pick<DuelServiceDependencies, 'catalogue' | 'limiter'>;

const EXPENSIVE_LIMIT_MESSAGE = 'too many characters sent to costly models for now';

/** The requester's budget for costly models is spent: 429, until `resetMs`. */
export function costlyModelsLimited(resetMs: number): AppError {
  return rateLimitedError(EXPENSIVE_LIMIT_MESSAGE, resetMs);
}

/**
 * The models this request may draw: all of them, or, once the requester's budget of characters
 * for costly models cannot pay for this prompt, only the others (a visitor who chose a costly
 * model is told to wait instead).
 */
export async function affordableCandidates(
  { catalogue, limiter }: CostlyModelBudget,
  request: CreateDuelRequest,
  requester: Requester,
): Promise<{ candidates: PairingCandidate[]; withoutExpensive?: { resetMs: number } }> {
  const candidates = catalogue.candidates();
  if (!limiter || !candidates.some((model) => model.expensive)) return { candidates };
  const left = await limiter.remaining('expensive_chars', requester);
  if (left.points >= request.prompt.length) return { candidates };
  if (request.models?.some((id) => catalogue.isExpensive(id))) throw costlyModelsLimited(left.resetMs);
  return { candidates: candidates.filter((model) => !model.expensive), withoutExpensive: { resetMs: left.resetMs } };
}

/**
 * A replacement for a side that fails before its first token: when nothing was charged for costly
 * models (neither drawn model is one), it is drawn among the others, or it would be a costly call
 * for free.
 */
export function uncharged({ catalogue, limiter }: CostlyModelBudget, pool: readonly string[], duel: DuelRecord): string[] {
  if (!limiter || catalogue.isExpensive(duel.modelA) || catalogue.isExpensive(duel.modelB)) return [...pool];
  return pool.filter((id) => !catalogue.isExpensive(id));
}

/** Counts the characters sent when one of the duel's models is costly; past the budget, 429. */
export async function spendOnExpensive(
  { catalogue, limiter }: CostlyModelBudget,
  modelIds: readonly string[],
  chars: number,
  requester: Requester,
): Promise<void> {
  if (!limiter || !modelIds.some((id) => catalogue.isExpensive(id))) return;
  const decision = await limiter.consume('expensive_chars', requester, Math.max(1, chars));
  if (!decision.allowed) throw costlyModelsLimited(decision.retryAfterMs);
}
