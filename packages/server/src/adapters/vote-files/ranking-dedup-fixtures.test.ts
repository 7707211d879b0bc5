import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEDUP_RANKING_FIXTURES } from '../../../test/reference-fixtures';
import { computeViewsFromColumns, countedVotes } from '../../domain/ranking/leaderboard-views';
import { firstVotePerVisitorCluster } from '../../domain/ranking/prompt-cluster-cap';
import { RankingVoteColumns } from '../../domain/ranking/vote-columns';
import { DEFAULT_CLUSTER_PUSH_RULE, clusterPushRows } from '../../domain/arena/cluster-push-rule';

interface ReferenceVote {
  model_a: string;
  model_b: string;
  winner: 'model_a' | 'model_b' | 'tie' | 'tie_bothbad';
  visitor: string;
  cluster: string;
  t: number;
}
interface ReferenceBoard {
  votes: number;
  sum_weights: number;
  ratings: Record<string, number>;
  se_sandwich: Record<string, number>;
}
const expected = JSON.parse(readFileSync(`${DEDUP_RANKING_FIXTURES}votes_1k.dedup.expected.json`, 'utf8')) as {
  campaign: { model_a: string; model_b: string; votes: number; cookies: number };
  votes: ReferenceVote[];
  counted_all: ReferenceBoard;
  deduplicated_capped: ReferenceBoard;
};
const CHOICE = { model_a: 'a', model_b: 'b', tie: 'tie', tie_bothbad: 'both_bad' } as const;
const MAIN = [{ key: 'overall|plain', style: 'plain', language: null, mode: null, category: null }] as const;

/** The reference's votes in the live board's columns, with or without their prompt clusters; rows in reverse time order half the time, so that "earliest" is by time, not row. */
function columnsOf(withClusters: boolean, votes = expected.votes) {
  const columns = new RankingVoteColumns();
  const order = votes.map((_, index) => index).sort((left, right) => (left % 2 === 0 ? left - right : right - left));
  for (const index of order) {
    const vote = votes[index]!;
    const choice = CHOICE[vote.winner];
    columns.put(
      {
        view: {
          vote: { modelA: vote.model_a, modelB: vote.model_b, choice },
          language: null,
          mode: 'random',
          categories: [],
          promptCluster: withClusters ? vote.cluster : null,
        },
        facts: {
          duelId: `d${index}`,
          createdAt: new Date(Date.UTC(2026, 11, 1) + vote.t * 1000).toISOString(),
          source: 'arena',
          visitor: vote.visitor,
          client: null,
          choice,
          modelA: vote.model_a,
          modelB: vote.model_b,
          votedAfterMs: null,
          review: null,
        },
      },
      `d${index}`,
    );
  }
  return columns.view();
}

describe('duplicate prompts on the board against the numpy reference (docs/ranking.md#duplicate-prompts)', () => {
  it.each([
    ['without clusters: every vote counts, weight 1', false, expected.counted_all],
    ['one vote per visitor and cluster, each cluster capped at max(5, 1 %)', true, expected.deduplicated_capped],
  ] as const)('%s: ratings to 0.01 points, sandwich SEs to 1e-4 relative', (_, withClusters, reference) => {
    const columns = columnsOf(withClusters);
    const counted = firstVotePerVisitorCluster(columns, countedVotes(columns, new Uint8Array(columns.length)));
    const board = computeViewsFromColumns(columns, counted, MAIN).get('overall|plain')!;
    expect(board.rows.length).toBe(Object.keys(reference.ratings).length);
    expect(counted.reduce((sum, value) => sum + value, 0)).toBe(reference.votes);
    for (const row of board.rows) {
      expect(row.rating, row.model).toBeCloseTo(reference.ratings[row.model]!, 2);
      expect(Math.abs(row.seSandwich / reference.se_sandwich[row.model]! - 1), row.model).toBeLessThan(1e-4);
    }
    if (withClusters) expect(board.weighting!.sumWeights).toBeCloseTo(reference.sum_weights, 9);
    else expect(board.weighting).toBeNull();
  });
});

describe('a cluster pushed from 50 cookies within a minute (the campaign of the reference)', () => {
  const ranks = (columns: ReturnType<typeof columnsOf>, counted: Uint8Array) =>
    new Map(
      computeViewsFromColumns(columns, counted, MAIN)
        .get('overall|plain')!
        .rows.map((row) => [row.model, row.rank] as const),
    );

  it('moves no rank once cluster_push flags it; counted, it moves the strongest model to last', () => {
    const honestVotes = expected.votes.slice(0, 1000);
    const honest = columnsOf(true, honestVotes);
    const before = ranks(honest, firstVotePerVisitorCluster(honest, countedVotes(honest, new Uint8Array(honest.length))));
    const columns = columnsOf(true);
    const flags = new Uint8Array(columns.length);
    for (const row of clusterPushRows(columns, DEFAULT_CLUSTER_PUSH_RULE)) flags[row] = 1;
    expect(flags.reduce((sum, value) => sum + value, 0)).toBe(60);
    const after = ranks(columns, firstVotePerVisitorCluster(columns, countedVotes(columns, flags)));
    const everything = ranks(columns, countedVotes(columns, new Uint8Array(columns.length)));
    const line = (board: Map<string, number | null>) =>
      [...board]
        .sort((a, b) => (a[1] ?? 0) - (b[1] ?? 0))
        .map(([model, rank]) => `${model}:${rank}`)
        .join(' ');
    console.info(`before: ${line(before)}\nafter (flagged): ${line(after)}\nall counted: ${line(everything)}`);
    expect(after).toEqual(before);
    expect(everything.get(expected.campaign.model_b)).not.toBe(before.get(expected.campaign.model_b));
  });
});
