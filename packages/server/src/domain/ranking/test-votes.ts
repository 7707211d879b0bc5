import { createSeededRandom } from './seeded-random';
import type { PairwiseVote, VoteOutcome } from './vote-table';

/** Shorthand for hand-written test votes: `vote('a', 'b', 'model_a')`. */
export function vote(modelA: string, modelB: string, outcome: VoteOutcome): PairwiseVote {
  return { modelA, modelB, outcome };
}

/** `count` copies of one vote. */
export function repeat(count: number, modelA: string, modelB: string, outcome: VoteOutcome): PairwiseVote[] {
  return Array.from({ length: count }, () => vote(modelA, modelB, outcome));
}

/**
 * Seeded synthetic votes from a Bradley–Terry model with ties (for tests): uniform pairs, a fair
 * A/B swap, P(tie) = tieShare·4p(1 − p), style counts whose length difference pushes the outcome.
 */
export function syntheticVotes(options: { models: number; votes: number; seed: number; tieShare?: number; lengthEffect?: number }): {
  votes: PairwiseVote[];
  theta: number[];
} {
  const random = createSeededRandom(options.seed);
  const gaussian = (): number => Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
  const theta = Array.from({ length: options.models }, () => 0.65 * gaussian());
  const names = theta.map((_, index) => `model-${String(index).padStart(3, '0')}`);
  const votes: PairwiseVote[] = [];
  for (let index = 0; index < options.votes; index++) {
    const a = Math.floor(random.nextDouble() * options.models);
    let b = Math.floor(random.nextDouble() * (options.models - 1));
    if (b >= a) b += 1;
    const lenA = 50 + Math.floor(random.nextDouble() * 900);
    const lenB = 50 + Math.floor(random.nextDouble() * 900);
    const d = (lenA - lenB) / (lenA + lenB + 1);
    const p = 1 / (1 + Math.exp(-(theta[a]! - theta[b]! + (options.lengthEffect ?? 0) * d)));
    let outcome: VoteOutcome;
    if (random.nextDouble() < (options.tieShare ?? 0.3) * 4 * p * (1 - p)) {
      outcome = random.nextDouble() < 0.3 ? 'both_bad' : 'tie';
    } else {
      outcome = random.nextDouble() < p ? 'model_a' : 'model_b';
    }
    const small = (): number => Math.floor(random.nextDouble() * 5);
    votes.push({
      modelA: names[a]!,
      modelB: names[b]!,
      outcome,
      style: {
        a: { len: lenA, headers: small(), lists: small(), bold: small() },
        b: { len: lenB, headers: small(), lists: small(), bold: small() },
      },
    });
  }
  return { votes, theta };
}
