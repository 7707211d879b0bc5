import { describe, expect, it } from 'vitest';
import { computeLeaderboard, type Leaderboard } from './leaderboard';
import { createSeededRandom } from './seeded-random';
import { fitVariant, prepareRanking } from './variants';
import { repeat, syntheticVotes, vote } from './test-votes';
import { buildVoteTable, type PairwiseVote } from './vote-table';

/** Every number a leaderboard reports is finite (never NaN or ±Infinity). */
function expectAllFinite(board: Leaderboard): void {
  for (const row of board.rows) {
    for (const [key, value] of Object.entries(row)) {
      if (typeof value === 'number') expect(Number.isFinite(value), `${row.model}.${key} = ${value}`).toBe(true);
    }
  }
  if (board.style) {
    for (const group of [board.style.beta, board.style.betaPointsPerSd, board.style.betaSeSandwich]) {
      for (const value of Object.values(group)) expect(Number.isFinite(value)).toBe(true);
    }
  }
}

const base = (): PairwiseVote[] => [
  ...repeat(6, 'a', 'b', 'model_a'),
  ...repeat(4, 'b', 'a', 'model_a'),
  ...repeat(5, 'b', 'c', 'model_a'),
  ...repeat(3, 'c', 'b', 'model_a'),
  ...repeat(4, 'c', 'a', 'model_a'),
  ...repeat(5, 'a', 'c', 'model_a'),
  ...repeat(2, 'a', 'b', 'tie'),
];

const rating = (board: Leaderboard, model: string): number => board.rows.find((row) => row.model === model)!.rating;

describe('computeLeaderboard on well-posed votes', () => {
  it('fits bt_mle, centres the component on 1000 and ranks every model', () => {
    const board = computeLeaderboard(buildVoteTable(base()));
    expect(board.variant).toBe('bt_mle');
    expect(board.mleExists).toBe(true);
    const mean = board.rows.reduce((sum, row) => sum + row.rating, 0) / board.rows.length;
    expect(mean).toBeCloseTo(1000, 9);
    expect(board.rows.map((row) => row.rank)).toEqual([1, 2, 3]);
    expect(board.rows.every((row) => !row.provisional && row.rankBest! <= row.rankWorst!)).toBe(true);
    expectAllFinite(board);
  });

  it('orders rows by rating and reports both-bad votes beside the rating', () => {
    const board = computeLeaderboard(buildVoteTable([...base(), vote('a', 'c', 'both_bad'), vote('b', 'a', 'both_bad')]));
    const a = board.rows.find((row) => row.model === 'a')!;
    expect(a.bothBad).toBe(2);
    expect(a.bothBadRate).toBeCloseTo(2 / a.nBattles, 12);
    expect(a.winRate).toBeCloseTo((a.wins + 0.5 * (a.ties + a.bothBad)) / a.nBattles, 12);
    const ratings = board.rows.map((row) => row.rating);
    expect(ratings).toEqual([...ratings].sort((x, y) => y - x));
  });

  it('shifts every rating with a named anchor and keeps the differences', () => {
    const plain = computeLeaderboard(buildVoteTable(base()));
    const anchored = computeLeaderboard(buildVoteTable(base()), { anchor: { model: 'b', rating: 1114 } });
    expect(rating(anchored, 'b')).toBeCloseTo(1114, 9);
    expect(rating(anchored, 'a') - rating(anchored, 'c')).toBeCloseTo(rating(plain, 'a') - rating(plain, 'c'), 9);
    expect(anchored.rows.find((row) => row.model === 'b')!.se).toBeCloseTo(0, 9);
  });

  it('gives anchored SEs of differences to the anchor: sqrt(C_jj + C_aa − 2C_ja)', () => {
    const table = buildVoteTable(base());
    const fit = fitVariant(prepareRanking(table), 'bt_mle');
    const anchored = computeLeaderboard(table, { anchor: { model: 'b', rating: 1114 } });
    const c = fit.covariance.sandwich;
    const n = fit.covariance.size;
    const expected = (400 / Math.LN10) * Math.sqrt(c[0]! + c[1 * n + 1]! - 2 * c[1]!);
    expect(anchored.rows.find((row) => row.model === 'a')!.se).toBeCloseTo(expected, 9);
  });

  it('refuses an anchor model without votes', () => {
    expect(() => computeLeaderboard(buildVoteTable(base()), { anchor: { model: 'zeta', rating: 1000 } })).toThrow(/zeta/);
  });

  it('bootstraps with a seeded source: same seed, same intervals; around the point estimate', () => {
    const table = buildVoteTable(syntheticVotes({ models: 8, votes: 4000, seed: 3 }).votes);
    const run = (seed: number) => computeLeaderboard(table, { bootstrap: { rounds: 60, random: createSeededRandom(seed) } });
    const first = run(1);
    const again = run(1);
    expect(first.uncertainty).toBe('bootstrap');
    expect(first.rows.map((row) => row.ciLow)).toEqual(again.rows.map((row) => row.ciLow));
    expect(run(2).rows.map((row) => row.ciLow)).not.toEqual(first.rows.map((row) => row.ciLow));
    for (const row of first.rows) {
      expect(row.ciLow).toBeLessThan(row.rating);
      expect(row.ciHigh).toBeGreaterThan(row.rating);
      expect(row.se / row.seSandwich).toBeGreaterThan(0.6);
      expect(row.se / row.seSandwich).toBeLessThan(1.5);
    }
    expectAllFinite(first);
  });
});

describe('computeLeaderboard on degenerate votes (docs/ranking.md#degenerate-data)', () => {
  it('flags a model that never loses and one that never wins as provisional, with bt_ridge', () => {
    const votes = [...base(), ...repeat(5, 'winner', 'a', 'model_a'), ...repeat(3, 'b', 'loser', 'model_a')];
    const board = computeLeaderboard(buildVoteTable(votes));
    expect(board.mleExists).toBe(false);
    expect(board.variant).toBe('bt_ridge');
    expect(board.note).toMatch(/no finite MLE/);
    expect(board.provisionalModels).toEqual(['loser', 'winner']);
    const winner = board.rows.find((row) => row.model === 'winner')!;
    expect(winner).toMatchObject({ provisional: true, rank: null, rankBest: null, rankWorst: null, tier: null });
    expect(board.rows.slice(0, 3).map((row) => row.rank)).toEqual([1, 2, 3]);
    const core = board.rows.filter((row) => !row.provisional);
    expect(core.reduce((sum, row) => sum + row.rating, 0) / core.length).toBeCloseTo(1000, 6);
    expectAllFinite(board);
  });

  it('falls back to bt_ridge when bt_mle is asked for without a finite MLE', () => {
    const board = computeLeaderboard(buildVoteTable([...base(), vote('new', 'a', 'model_a')]), { variant: 'bt_mle' });
    expect(board.variant).toBe('bt_ridge');
    expect(board.requestedVariant).toBe('bt_mle');
    expect(board.note).toMatch(/bt_mle has no finite MLE/);
  });

  it('reports the components of a disconnected graph, each centred on 1000', () => {
    const other = base().map((entry) => ({ ...entry, modelA: `${entry.modelA}2`, modelB: `${entry.modelB}2` }));
    const board = computeLeaderboard(buildVoteTable([...base(), ...other]));
    expect(board.components).toEqual([
      ['a', 'b', 'c'],
      ['a2', 'b2', 'c2'],
    ]);
    expect(board.mleExists).toBe(true);
    for (const component of board.components) {
      const mean = component.reduce((sum, model) => sum + rating(board, model), 0) / component.length;
      expect(mean).toBeCloseTo(1000, 9);
    }
    expectAllFinite(board);
  });

  it('handles a single decisive vote: both models provisional, finite ratings', () => {
    const board = computeLeaderboard(buildVoteTable([vote('x', 'y', 'model_a')]));
    expect(board.variant).toBe('bt_ridge');
    expect(board.provisionalModels).toEqual(['x', 'y']);
    expect(rating(board, 'x')).toBeGreaterThan(rating(board, 'y'));
    expect(rating(board, 'x') + rating(board, 'y')).toBeCloseTo(2000, 9);
    expectAllFinite(board);
  });

  it('handles a single tie: equal ratings, zero sandwich SE, finite Hessian SE', () => {
    const board = computeLeaderboard(buildVoteTable([vote('x', 'y', 'tie')]));
    expect(board.variant).toBe('bt_mle');
    expect(board.rows.map((row) => row.rating)).toEqual([1000, 1000]);
    expect(board.rows.every((row) => row.se === 0 && row.seHessian > 0)).toBe(true);
    expect(board.rows.map((row) => [row.rankBest, row.rankWorst])).toEqual([
      [1, 2],
      [1, 2],
    ]);
    expectAllFinite(board);
  });

  it('puts every model at exactly 1000 when all votes are ties', () => {
    const votes = [...repeat(3, 'a', 'b', 'tie'), ...repeat(2, 'b', 'c', 'both_bad'), vote('c', 'a', 'tie')];
    const board = computeLeaderboard(buildVoteTable(votes), { bootstrap: { rounds: 20, random: createSeededRandom(5) } });
    expect(board.rows.every((row) => row.rating === 1000)).toBe(true);
    expectAllFinite(board);
  });

  it('drops self-play before anything else, and returns an empty board when nothing is left', () => {
    const table = buildVoteTable([...base(), vote('a', 'a', 'model_a'), vote('z', 'z', 'tie')]);
    expect(table.selfPlayDropped).toBe(2);
    expect(table.models).toEqual(['a', 'b', 'c']);
    const empty = computeLeaderboard(buildVoteTable([vote('z', 'z', 'model_b')]));
    expect(empty).toMatchObject({ nVotesRaw: 1, nVotesUsed: 0, nSelfPlayDropped: 1, nModels: 0, rows: [], variant: null });
  });

  it('survives a bootstrap in which a rare model disappears or never loses', () => {
    const votes = [...base(), vote('rare', 'a', 'model_a'), vote('rare', 'b', 'model_b')];
    const board = computeLeaderboard(buildVoteTable(votes), { bootstrap: { rounds: 50, random: createSeededRandom(9) } });
    expect(board.bootstrap!.roundsWithoutMle).toBeGreaterThan(0);
    expectAllFinite(board);
  });
});

describe('computeLeaderboard with style control', () => {
  const { votes } = syntheticVotes({ models: 6, votes: 3000, seed: 11, lengthEffect: 1.2 });

  it('fits style_fastchat, reports β per feature and points per SD', () => {
    const board = computeLeaderboard(buildVoteTable(votes), { style: true });
    expect(board.variant).toBe('style_fastchat');
    expect(board.style!.active).toEqual(['len', 'headers', 'lists', 'bold']);
    expect(board.style!.beta.len).toBeGreaterThan(0.15);
    expect(Math.abs(board.style!.beta.bold)).toBeLessThan(0.1);
    expect(board.style!.betaPointsPerSd.len).toBeCloseTo((400 / Math.LN10) * board.style!.beta.len, 9);
    expectAllFinite(board);
  });

  it('leaves a constant style column out and reports its β as 0', () => {
    const constant = votes.map((entry) => ({
      ...entry,
      style: { a: { ...entry.style!.a, headers: 2 }, b: { ...entry.style!.b, headers: 2 } },
    }));
    const board = computeLeaderboard(buildVoteTable(constant), { variant: 'style_ridge' });
    expect(board.style!.active).toEqual(['len', 'lists', 'bold']);
    expect(board.style!.beta.headers).toBe(0);
    expect(board.style!.stdD[1]).toBe(0);
    expectAllFinite(board);
  });

  it('still fits when every style column is constant', () => {
    const flat = votes.map((entry) => ({
      ...entry,
      style: { a: { len: 1, headers: 0, lists: 0, bold: 0 }, b: { len: 1, headers: 0, lists: 0, bold: 0 } },
    }));
    const board = computeLeaderboard(buildVoteTable(flat), { style: true });
    expect(board.style!.active).toEqual([]);
    expectAllFinite(board);
  });

  it('refuses style control on votes without style counts', () => {
    expect(() => computeLeaderboard(buildVoteTable(base()), { style: true })).toThrow(/style counts/);
  });

  it('bootstraps the style fit at the vote level', () => {
    const board = computeLeaderboard(buildVoteTable(votes.slice(0, 800)), {
      style: true,
      bootstrap: { rounds: 10, random: createSeededRandom(2) },
    });
    expect(board.uncertainty).toBe('bootstrap');
    expectAllFinite(board);
  });
});
