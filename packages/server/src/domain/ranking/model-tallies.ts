import { CHOICE_CODE } from '../arena/vote-integrity';
import type { VoteColumns } from './vote-columns';

/**
 * One pair's direct record on the main board, from the side of `a` (the first of the two ids in
 * code-unit order): `wins` are a's, `losses` b's.
 */
export interface PairTally {
  a: string;
  b: string;
  wins: number;
  ties: number;
  bothBad: number;
  losses: number;
}

/** Votes per model and language on the main board (a vote counts once for each of its two models). */
export interface LanguageTally {
  model: string;
  language: string;
  votes: number;
}

/** What the model sheets and head-to-head pages read of one refresh: every pair's record, every model's languages. */
export interface ModelTallies {
  generatedAt: string;
  pairs: PairTally[];
  languages: LanguageTally[];
}

/**
 * Every pair's record and every model's votes per language among the votes a refresh put on the
 * main board (`onMainBoard[row]` is 1: counted, and not kept to its own mode's view), so that the
 * sheets count exactly the votes the board ranks. One pass over the columns: cost O(votes), once
 * per refresh, never per request.
 */
export function modelTallies(columns: VoteColumns, onMainBoard: Uint8Array, generatedAt: string): ModelTallies {
  const models = columns.models.length;
  // Per ordered pair (lower index first) four counts: first's wins, ties, both bad, second's wins.
  const pairCounts = new Map<number, Uint32Array>();
  const languageCounts = new Map<number, number>();
  const languageKey = (model: number, language: number) => model * (columns.languages.length + 1) + language;
  for (let row = 0; row < columns.length; row++) {
    if (onMainBoard[row] !== 1) continue;
    const modelA = columns.modelA[row]!;
    const modelB = columns.modelB[row]!;
    const swapped = modelA > modelB;
    const key = swapped ? modelB * models + modelA : modelA * models + modelB;
    let counts = pairCounts.get(key);
    if (!counts) pairCounts.set(key, (counts = new Uint32Array(4)));
    counts[outcomeSlot(columns.choice[row]!, swapped)]! += 1;
    const language = columns.language[row]!;
    if (language < 0) continue;
    for (const model of [modelA, modelB]) {
      const at = languageKey(model, language);
      languageCounts.set(at, (languageCounts.get(at) ?? 0) + 1);
    }
  }
  return {
    generatedAt,
    pairs: [...pairCounts].map(([key, counts]) => orderedPair(columns.models, Math.floor(key / models), key % models, counts)),
    languages: [...languageCounts].map(([key, votes]) => ({
      model: columns.models[Math.floor(key / (columns.languages.length + 1))]!,
      language: columns.languages[key % (columns.languages.length + 1)]!,
      votes,
    })),
  };
}

/** The slot of a choice among the first model's wins, ties, both bad and losses. */
function outcomeSlot(choice: number, swapped: boolean): number {
  if (choice === CHOICE_CODE.tie) return 1;
  if (choice === CHOICE_CODE.both_bad) return 2;
  const firstWon = (choice === CHOICE_CODE.a) !== swapped;
  return firstWon ? 0 : 3;
}

/** A pair of column indices as a tally whose `a` comes first in code-unit order (ids, not column numbers, fix the order). */
function orderedPair(names: readonly string[], first: number, second: number, counts: Uint32Array): PairTally {
  const [wins, ties, bothBad, losses] = [counts[0]!, counts[1]!, counts[2]!, counts[3]!];
  const a = names[first]!;
  const b = names[second]!;
  return a < b ? { a, b, wins, ties, bothBad, losses } : { a: b, b: a, wins: losses, ties, bothBad, losses: wins };
}

/** A pair's record seen from `model` (undefined when the two never met on the main board). */
export function recordOf(tallies: ModelTallies, model: string, opponent: string): Omit<PairTally, 'a' | 'b'> | undefined {
  const [a, b] = model < opponent ? [model, opponent] : [opponent, model];
  const found = tallies.pairs.find((pair) => pair.a === a && pair.b === b);
  if (!found) return undefined;
  const { wins, ties, bothBad, losses } = found;
  return model === a ? { wins, ties, bothBad, losses } : { wins: losses, ties, bothBad, losses: wins };
}

/**
 * The board's probability that `rating` beats `opponentRating` (Bradley–Terry on the 400-point,
 * base-10 scale: 1 / (1 + 10^(−Δ/400))).
 */
export function predictedWinProbability(rating: number, opponentRating: number): number {
  return 1 / (1 + 10 ** (-(rating - opponentRating) / 400));
}

/**
 * The observed share comparable with {@link predictedWinProbability}: wins plus half the ties and
 * both-bad votes, over all votes, as the fit counts them (vote-table.ts); null without votes.
 */
export function observedWinShare(record: Omit<PairTally, 'a' | 'b'>): number | null {
  const n = record.wins + record.ties + record.bothBad + record.losses;
  return n === 0 ? null : (record.wins + (record.ties + record.bothBad) / 2) / n;
}
