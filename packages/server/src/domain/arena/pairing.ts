import type { DuelMode, Side } from '@agora/contract';

/** A random number in [0, 1), supplied by the caller so that draws are reproducible in tests. */
export type RandomSource = () => number;

/** What the pairing policy needs to know about a drawable model. */
export interface PairingCandidate {
  id: string;
  /** Total parameters in billions; null when unknown (such a model is never "small" or "big"). */
  paramsB: number | null;
  reasoning: boolean;
  /** Marked costly in the catalogue: left out of the draw for a requester whose budget for such models is spent. */
  expensive: boolean;
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
  /**
   * Optional weight of an unordered pair (catch-up, informativeness: see domain/ranking/sampling-weights);
   * uniform when absent. It may only use what was known before the duel, never the vote being cast.
   */
  pairWeight?: (first: string, second: string) => number;
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
 * The pools a request's draw takes models from: both roles', or in custom mode the rival's only when
 * the visitor chose one model, none when they chose two. What a request may reach beyond the
 * models it names, known before anything is drawn.
 */
export function drawnPools(request: Pick<PairingRequest, 'mode' | 'chosen'>, models: readonly PairingCandidate[]): string[][] {
  const [firstPool, secondPool] = rolePools(request.mode, models);
  if (request.mode !== 'custom') return [firstPool, secondPool];
  return (request.chosen?.length ?? 0) >= 2 ? [] : [secondPool];
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
  const custom = request.mode === 'custom';
  const pair =
    custom && chosen.length === 2
      ? ([chosen[0]!, chosen[1]!] as const)
      : drawPairFromPools(custom ? [chosen[0]!] : firstPool, secondPool, random, request.pairWeight);
  if (!pair) return { ok: false, reason: 'not_enough_models', mode: request.mode };
  const [first, second] = pair;

  const firstSide: DrawnSide = { modelId: first, replacementPool: custom ? [] : firstPool };
  const secondSide: DrawnSide = { modelId: second, replacementPool: custom && chosen.length === 2 ? [] : secondPool };
  return random() < 0.5 ? { ok: true, sides: { a: firstSide, b: secondSide } } : { ok: true, sides: { a: secondSide, b: firstSide } };
}

/**
 * One model from each pool, never the same twice: uniformly (a uniform first model, then a uniform
 * second among the rest), or proportionally to the pair's weight.
 */
function drawPairFromPools(
  firstPool: readonly string[],
  secondPool: readonly string[],
  random: RandomSource,
  pairWeight?: (first: string, second: string) => number,
): readonly [string, string] | undefined {
  if (!pairWeight) {
    const first = pickFrom(firstPool, [], random);
    const second = first === undefined ? undefined : pickFrom(secondPool, [first], random);
    return first !== undefined && second !== undefined ? [first, second] : undefined;
  }
  const pairs: [string, string, number][] = [];
  let total = 0;
  for (const first of firstPool) {
    for (const second of secondPool) {
      // Where the pools overlap a pair comes up in both orders, each with its weight: proportions hold.
      if (first === second) continue;
      const weight = Math.max(0, pairWeight(first, second));
      pairs.push([first, second, weight]);
      total += weight;
    }
  }
  if (pairs.length === 0) return undefined;
  if (!(total > 0)) return pairs[Math.floor(random() * pairs.length)]!.slice(0, 2) as [string, string];
  let target = random() * total;
  for (const [first, second, weight] of pairs) {
    target -= weight;
    if (target < 0) return [first, second];
  }
  const [first, second] = pairs[pairs.length - 1]!;
  return [first, second];
}

/** Picks a replacement for a side from its pool, excluding the models already in the duel and those that failed. */
export function drawReplacement(side: DrawnSide, exclude: readonly string[], random: RandomSource): string | undefined {
  return pickFrom(side.replacementPool, exclude, random);
}

function pickFrom(pool: readonly string[], exclude: readonly string[], random: RandomSource): string | undefined {
  const candidates = pool.filter((id) => !exclude.includes(id));
  if (candidates.length === 0) return undefined;
  return candidates[Math.floor(random() * candidates.length)];
}
