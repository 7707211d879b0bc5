import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RankingError } from '../../domain/ranking';
import { type Margin, type RakingOptions, marginError, rakeWeights } from '../../domain/ranking/raking';
import { type PopulationVote, populationBoard } from '../../domain/ranking/population-board';
import { POPULATION_RANKING_FIXTURES, RANKING_FIXTURES } from '../../../test/reference-fixtures';

/** One case of test/fixtures/reference/ranking-population/votes_1k.population.expected.json (oracle_population.py). */
interface PopulationCase {
  case: string;
  options: RakingOptions;
  margins: Margin[];
  visitor_of_vote: number[];
  answers: Record<string, number[]>;
  visitor_weights: Record<string, number>;
  trim_rounds: number;
  answered_votes: number;
  answered_visitors: number;
  ratings: Record<string, number>;
  se_sandwich_clustered: Record<string, number>;
  effective_votes: number;
}

const expected = JSON.parse(readFileSync(`${POPULATION_RANKING_FIXTURES}votes_1k.population.expected.json`, 'utf8')) as {
  cases: PopulationCase[];
};
const votes = readFileSync(`${RANKING_FIXTURES}votes_1k.jsonl`, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as { model_a: string; model_b: string; winner: string })
  .filter((vote) => vote.model_a !== vote.model_b);
const outcome = (winner: string): PopulationVote['outcome'] =>
  winner === 'model_a' ? 'model_a' : winner === 'model_b' ? 'model_b' : winner === 'both_bad' ? 'both_bad' : 'tie';

describe('the board weighted to the population against the numpy reference (docs/ranking.md#population-board)', () => {
  it.each(expected.cases.map((entry) => [entry.case, entry] as const))('%s: raked weights to 1e-6, the weighted fit', (_, entry) => {
    const visitors = Object.keys(entry.answers);
    const raked = rakeWeights(
      visitors.map((visitor) => entry.answers[visitor]!),
      entry.margins,
      entry.options,
    );
    visitors.forEach((visitor, index) => expect(raked.weights[index]!, visitor).toBeCloseTo(entry.visitor_weights[visitor]!, 6));
    expect(raked.trimRounds).toBe(entry.trim_rounds);

    const tagged = votes.map((vote, index) => ({
      modelA: vote.model_a,
      modelB: vote.model_b,
      outcome: outcome(vote.winner),
      visitor: String(entry.visitor_of_vote[index]),
    }));
    const answers = new Map(Object.entries(entry.answers));
    const board = populationBoard(tagged, answers, entry.margins, {
      raking: entry.options,
      threshold: { minVotes: 900, minVisitors: 135 },
    });
    if (!board.shown) throw new Error(`not shown: ${board.reason}`);
    expect(board.counts).toEqual({ votes: votes.length, answeredVotes: entry.answered_votes, answeredVisitors: entry.answered_visitors });
    for (const row of board.leaderboard.rows) {
      expect(row.rating, row.model).toBeCloseTo(entry.ratings[row.model]!, 2);
      expect(Math.abs(row.seSandwich / entry.se_sandwich_clustered[row.model]! - 1), row.model).toBeLessThan(1e-4);
    }
    expect(board.leaderboard.weighting!.effectiveVotes).toBeCloseTo(entry.effective_votes, 4);
    expect(board.leaderboard.weighting!.clusters).toBe(entry.answered_visitors);
  });

  it('is not shown below the threshold, and says which count is short', () => {
    const entry = expected.cases[0]!;
    const tagged = votes.map((vote, index) => ({
      modelA: vote.model_a,
      modelB: vote.model_b,
      outcome: outcome(vote.winner),
      visitor: String(entry.visitor_of_vote[index]),
    }));
    const answers = new Map(Object.entries(entry.answers));
    expect(populationBoard(tagged, answers, entry.margins, { threshold: { minVotes: 901, minVisitors: 1 } })).toMatchObject({
      shown: false,
      reason: 'too_few_votes',
    });
    expect(populationBoard(tagged, answers, entry.margins, { threshold: { minVotes: 1, minVisitors: 136 } })).toMatchObject({
      shown: false,
      reason: 'too_few_visitors',
    });
    // Nobody in the fourth age band: its 20 % can never be met.
    const noRareBand = new Map([...answers].filter(([, answer]) => answer[0] !== 3));
    expect(populationBoard(tagged, noRareBand, entry.margins, { threshold: { minVotes: 1, minVisitors: 1 } })).toMatchObject({
      shown: false,
      reason: 'margin_unreachable',
    });
  });

  it('meets the margins within the tolerance, keeps weights within the trimming bounds when they allow it, and refuses bad margins', () => {
    const entry = expected.cases[0]!;
    const respondents = Object.values(entry.answers);
    const raked = rakeWeights(respondents, entry.margins, entry.options);
    expect(raked.converged).toBe(true);
    expect(marginError(raked.weights, respondents, entry.margins)).toBeLessThan(1e-8);
    expect(Math.max(...raked.weights) / Math.min(...raked.weights)).toBeLessThan(25 + 1e-6);
    const refused = (run: () => unknown) => expect(run).toThrow(RankingError);
    refused(() => rakeWeights(respondents, [{ question: 'age_band', shares: [0.5, 0.5, 0.5, 0.5] }]));
    refused(() => rakeWeights(respondents, [{ question: 'gender', shares: [1] }]));
    refused(() => rakeWeights([], entry.margins));
  });
});
