import { describe, expect, it } from 'vitest';
import { computeLeaderboard, type Leaderboard } from './leaderboard';
import { syntheticVotes } from './test-votes';
import { buildVoteTable, type PairwiseVote } from './vote-table';

/*
 * A vote of integer weight k is k copies of that vote clustered together: the same objective, and
 * the same meat (k(p − y))². That identity, exact for the plain and the style fits, checks the
 * weighted Hessian, the w² meat and the per-cluster sums without a second implementation.
 */

const votes: PairwiseVote[] = syntheticVotes({ models: 6, votes: 600, seed: 7, tieShare: 0.2, lengthEffect: 0.3 }).votes;
const weights = votes.map((_, index) => 1 + ((index * 5) % 4));

function copies(): { table: ReturnType<typeof buildVoteTable>; cluster: Int32Array } {
  const repeated: PairwiseVote[] = [];
  const cluster: number[] = [];
  votes.forEach((vote, index) => {
    for (let copy = 0; copy < weights[index]!; copy++) {
      repeated.push(vote);
      cluster.push(index);
    }
  });
  return { table: buildVoteTable(repeated), cluster: Int32Array.from(cluster) };
}

function expectSameFit(weighted: Leaderboard, repeated: Leaderboard): void {
  const byModel = new Map(repeated.rows.map((row) => [row.model, row]));
  for (const row of weighted.rows) {
    const twin = byModel.get(row.model)!;
    expect(row.rating, row.model).toBeCloseTo(twin.rating, 6);
    expect(row.seSandwich / twin.seSandwich, row.model).toBeCloseTo(1, 8);
    expect(row.seHessian / twin.seHessian, row.model).toBeCloseTo(1, 8);
  }
}

describe('vote weights and clusters', () => {
  it.each([false, true])('weight k equals k clustered copies (style control: %s)', (style) => {
    const table = buildVoteTable(votes);
    const weighted = computeLeaderboard(table, { style, weighting: { weight: Float64Array.from(weights) } });
    const { table: repeatedTable, cluster } = copies();
    const repeated = computeLeaderboard(repeatedTable, { style, weighting: { cluster } });
    expect(weighted.variant).toBe(style ? 'style_fastchat' : 'bt_mle');
    expectSameFit(weighted, repeated);
    if (style) {
      for (const feature of ['len', 'headers', 'lists', 'bold'] as const) {
        expect(weighted.style!.beta[feature]).toBeCloseTo(repeated.style!.beta[feature], 8);
        expect(weighted.style!.betaSeSandwich[feature]).toBeCloseTo(repeated.style!.betaSeSandwich[feature], 8);
      }
    }
    // Unclustered copies would be independent votes: narrower intervals than the weighted fit's.
    const independent = computeLeaderboard(repeatedTable, { style });
    expect(independent.rows[0]!.seSandwich).toBeLessThan(weighted.rows.find((row) => row.model === independent.rows[0]!.model)!.seSandwich);
  });

  it.each([false, true])('one vote per cluster and unit weights give the unweighted board (style control: %s)', (style) => {
    const table = buildVoteTable(votes);
    const plain = computeLeaderboard(table, { style });
    const weighted = computeLeaderboard(table, {
      style,
      weighting: { weight: new Float64Array(table.length).fill(1), cluster: Int32Array.from({ length: table.length }, (_, row) => row) },
    });
    expectSameFit(weighted, plain);
    expect(weighted.weighting).toMatchObject({ sumWeights: table.length, clusters: table.length });
    expect(weighted.weighting!.effectiveVotes).toBeCloseTo(table.length, 9);
    expect(weighted.weighting!.designEffect).toBeCloseTo(1, 9);
    expect(plain.weighting).toBeNull();
  });

  it('a vote of weight 0 is a vote left out', () => {
    const table = buildVoteTable(votes);
    const weight = Float64Array.from(votes, (_, index) => (index % 10 === 0 ? 0 : 1));
    const weighted = computeLeaderboard(table, { weighting: { weight } });
    const without = computeLeaderboard(buildVoteTable(votes.filter((_, index) => index % 10 !== 0)));
    expectSameFit(weighted, without);
    expect(weighted.weighting!.sumWeights).toBe(without.nVotesUsed);
  });
});
