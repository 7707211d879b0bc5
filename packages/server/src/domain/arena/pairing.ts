import type { DuelMode, Side } from '@agora/contract';

/** A random number in [0, 1), supplied by the caller so that draws are reproducible in tests. */
export type RandomSource = () => number;

/** What the pairing policy needs to know about a drawable model. */
export interface PairingCandidate {
  id: string;
  /** Total parameters in billions; null when unknown (such a model is never "small" or "big"). */
  paramsB: number | null;
  reasoning: boolean;
}

/** Upper bound (inclusive) of the small-models pool, in billions of parameters. */
export const SMALL_MODEL_MAX_PARAMS_B = 60;
/** Lower bound (inclusive) of the "big" pool of big-vs-small, in billions of parameters. */
export const BIG_MODEL_MIN_PARAMS_B = 100;

/** One side of a drawn duel: the model and the pool a replacement may come from (empty when the visitor chose it). */
export interface DrawnSide {
  modelId: string;
  replacementPool: string[];
}

export type PairingOutcome =
  | { ok: true; sides: Record<Side, DrawnSide> }
  | { ok: false; reason: 'unknown_models'; unknown: string[] }
  | { ok: false; reason: 'not_enough_models'; mode: DuelMode };

export interface PairingRequest {
  mode: DuelMode;
  /** The visitor's choice in custom mode (one or two ids). */
  chosen?: readonly string[];
  /** Optional weight per model id (catch-up, informativeness); uniform when absent. Never looks at votes being cast. */
  weight?: (modelId: string) => number;
}

const isSmall = (model: PairingCandidate) => model.paramsB !== null && model.paramsB <= SMALL_MODEL_MAX_PARAMS_B;
const isBig = (model: PairingCandidate) => model.paramsB !== null && model.paramsB >= BIG_MODEL_MIN_PARAMS_B;

/** The pool of each of the two roles of a mode (custom's rival comes from every drawable model). */
export function rolePools(mode: DuelMode, models: readonly PairingCandidate[]): [string[], string[]] {
  const ids = (filter: (model: PairingCandidate) => boolean) => models.filter(filter).map((model) => model.id);
  switch (mode) {
    case 'random':
    case 'custom':
      return [ids(() => true), ids(() => true)];
    case 'small-models':
      return [ids(isSmall), ids(isSmall)];
    case 'big-vs-small':
      return [ids(isBig), ids(isSmall)];
    case 'reasoning':
      return [ids((model) => model.reasoning), ids((model) => model.reasoning)];
  }
}

/**
 * Draws the two models of a duel for a mode, then places them on sides A and B with a fair coin.
 * Each role's model is drawn from its pool (uniformly, or proportionally to `weight`), the second
 * excluding the first. Chosen models (custom mode) are never replaced.
 */
export function drawDuel(request: PairingRequest, models: readonly PairingCandidate[], random: RandomSource): PairingOutcome {
  const known = new Set(models.map((model) => model.id));
  const chosen = request.chosen ?? [];
  const unknown = chosen.filter((id) => !known.has(id));
  if (request.mode === 'custom' && unknown.length > 0) return { ok: false, reason: 'unknown_models', unknown };

  const [firstPool, secondPool] = rolePools(request.mode, models);
  const first = request.mode === 'custom' ? chosen[0] : pickFrom(firstPool, [], random, request.weight);
  const second =
    request.mode === 'custom' && chosen[1] !== undefined ? chosen[1] : pickFrom(secondPool, first ? [first] : [], random, request.weight);
  if (first === undefined || second === undefined) return { ok: false, reason: 'not_enough_models', mode: request.mode };

  const firstSide: DrawnSide = { modelId: first, replacementPool: request.mode === 'custom' ? [] : firstPool };
  const secondSide: DrawnSide = {
    modelId: second,
    replacementPool: request.mode === 'custom' && chosen[1] !== undefined ? [] : secondPool,
  };
  return random() < 0.5 ? { ok: true, sides: { a: firstSide, b: secondSide } } : { ok: true, sides: { a: secondSide, b: firstSide } };
}

/** Picks a replacement for a side from its pool, excluding the models already in the duel and those that failed. */
export function drawReplacement(side: DrawnSide, exclude: readonly string[], random: RandomSource): string | undefined {
  return pickFrom(side.replacementPool, exclude, random);
}

function pickFrom(
  pool: readonly string[],
  exclude: readonly string[],
  random: RandomSource,
  weight?: (modelId: string) => number,
): string | undefined {
  const candidates = pool.filter((id) => !exclude.includes(id));
  if (candidates.length === 0) return undefined;
  if (!weight) return candidates[Math.floor(random() * candidates.length)];
  const weights = candidates.map((id) => Math.max(0, weight(id)));
  const total = weights.reduce((sum, value) => sum + value, 0);
  if (!(total > 0)) return candidates[Math.floor(random() * candidates.length)];
  let target = random() * total;
  for (let index = 0; index < candidates.length; index += 1) {
    target -= weights[index]!;
    if (target < 0) return candidates[index];
  }
  return candidates[candidates.length - 1];
}
