import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeLeaderboard, createSeededRandom, RankingError, type VoteTable } from '../../domain/ranking';
import { RANKING_FIXTURES, WEIGHTED_RANKING_FIXTURES } from '../../../test/reference-fixtures';
import { readVoteFile } from './read-vote-file';

/** One case of test/fixtures/reference/ranking-weighted/votes_1k.weighted.expected.json (written by oracle_weighted.py). */
interface WeightedCase {
  case: string;
  weights: number[];
  clusters: number[];
  ratings: Record<string, number>;
  se_sandwich_clustered: Record<string, number>;
  se_sandwich_independent: Record<string, number>;
  sum_weights: number;
  effective_votes: number;
  clusters_used: number;
}

const expected = JSON.parse(readFileSync(`${WEIGHTED_RANKING_FIXTURES}votes_1k.weighted.expected.json`, 'utf8')) as {
  cases: WeightedCase[];
};
const table = async (): Promise<VoteTable> => (await readVoteFile(`${RANKING_FIXTURES}votes_1k.jsonl`)).table;

describe('weighted and clustered fits against the numpy reference (docs/ranking.md#weights-and-clusters)', () => {
  it.each(expected.cases.map((entry) => [entry.case, entry] as const))(
    '%s: ratings to 0.01 points, clustered sandwich SEs to 1e-4 relative',
    async (_, entry) => {
      const votes = await table();
      expect(votes.length).toBe(entry.weights.length);
      const weighting = { weight: Float64Array.from(entry.weights), cluster: Int32Array.from(entry.clusters) };
      const board = computeLeaderboard(votes, { variant: 'bt_mle', weighting });
      for (const row of board.rows) {
        expect(row.rating, row.model).toBeCloseTo(entry.ratings[row.model]!, 2);
        expect(Math.abs(row.seSandwich / entry.se_sandwich_clustered[row.model]! - 1), row.model).toBeLessThan(1e-4);
      }
      const { weighting: summary } = board;
      expect(summary!.sumWeights).toBeCloseTo(entry.sum_weights, 9);
      expect(summary!.effectiveVotes).toBeCloseTo(entry.effective_votes, 6);
      expect(summary!.clusters).toBe(entry.clusters_used);
      // The clusters' share of the design effect, from the reference's two sandwiches.
      const ratios = board.rows
        .filter((row) => !row.provisional)
        .map((row) => (entry.se_sandwich_clustered[row.model]! / entry.se_sandwich_independent[row.model]!) ** 2)
        .sort((x, y) => x - y);
      const median =
        ratios.length % 2 ? ratios[(ratios.length - 1) / 2]! : (ratios[ratios.length / 2 - 1]! + ratios[ratios.length / 2]!) / 2;
      const kish = entry.weights.filter((w) => w > 0).length / entry.effective_votes;
      expect(summary!.designEffect).toBeCloseTo(kish * median, 6);
    },
  );

  it('refuses a bootstrap with weights, and weights or clusters that do not fit the votes', async () => {
    const votes = await table();
    const random = createSeededRandom(1);
    const refused = (run: () => unknown) => expect(run).toThrow(RankingError);
    refused(() =>
      computeLeaderboard(votes, { weighting: { weight: new Float64Array(votes.length).fill(1) }, bootstrap: { rounds: 10, random } }),
    );
    refused(() => computeLeaderboard(votes, { weighting: { weight: new Float64Array(3) } }));
    refused(() => computeLeaderboard(votes, { weighting: { weight: new Float64Array(votes.length).fill(-1) } }));
    refused(() => computeLeaderboard(votes, { weighting: { weight: new Float64Array(votes.length).fill(Number.NaN) } }));
    refused(() => computeLeaderboard(votes, { weighting: { cluster: new Int32Array(votes.length).fill(-2) } }));
  });
});
