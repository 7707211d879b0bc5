import { describe, expect, it } from 'vitest';
import { computeLeaderboard } from './leaderboard';
import { syntheticVotes } from './test-votes';
import { buildVoteTable } from './vote-table';
import { type RankingTurnVerdict, turnVerdictTable } from './turn-verdict-votes';

/*
 * The turn unit (`agora leaderboard --unit turn`) against an identity that needs no second
 * implementation: when every turn of a duel gets the same verdict, a duel of k turns is k copies of
 * one vote clustered together, so the clustered (CR0) sandwich is exactly that of one vote per duel:
 * bread k·H, meat k²·M, hence (kH)⁻¹k²M(kH)⁻¹ = H⁻¹MH⁻¹. Counted as independent votes instead, the
 * same verdicts would claim √k times narrower intervals.
 */

const duels = syntheticVotes({ models: 5, votes: 400, seed: 11, tieShare: 0.15 }).votes;
const TURNS = 4;
const CHOICE = { model_a: 'a', model_b: 'b', tie: 'both_good', both_bad: 'both_bad' } as const;

function agreeingVerdicts(): RankingTurnVerdict[] {
  return duels.flatMap((vote, index) =>
    Array.from({ length: TURNS }, (_, turn) => ({
      duelId: `duel-${index}`,
      turn: turn + 1,
      choice: CHOICE[vote.outcome],
      modelA: vote.modelA,
      modelB: vote.modelB,
    })),
  );
}

describe('per-turn verdicts as votes, clustered by duel', () => {
  it('maps the four verdicts to the four outcomes and numbers one cluster per duel, self-play left out of both', () => {
    const { table, clusters } = turnVerdictTable([
      { duelId: 'd1', turn: 1, choice: 'a', modelA: 'x', modelB: 'y' },
      { duelId: 'd1', turn: 2, choice: 'both_good', modelA: 'x', modelB: 'y' },
      { duelId: 'd2', turn: 1, choice: 'b', modelA: 'y', modelB: 'x' },
      { duelId: 'd3', turn: 1, choice: 'both_bad', modelA: 'z', modelB: 'z' },
      { duelId: 'd1', turn: 3, choice: 'both_bad', modelA: 'x', modelB: 'y' },
    ]);
    expect(table.length).toBe(4);
    expect([...table.outcome]).toEqual([0, 2, 1, 3]);
    expect([...clusters]).toEqual([0, 0, 1, 0]);
    expect(table.selfPlayDropped).toBe(1);
  });

  it('gives, when the turns of each duel agree, the intervals of one vote per duel: wider than unclustered by √k', () => {
    const { table, clusters } = turnVerdictTable(agreeingVerdicts());
    expect(table.length).toBe(duels.length * TURNS);
    const clustered = computeLeaderboard(table, { weighting: { cluster: clusters } });
    const unclustered = computeLeaderboard(table);
    const perDuel = computeLeaderboard(buildVoteTable(duels));
    expect(clustered.weighting).toMatchObject({ clusters: duels.length });
    const byModel = (board: typeof perDuel) => new Map(board.rows.map((row) => [row.model, row]));
    const [duelRows, looseRows] = [byModel(perDuel), byModel(unclustered)];
    expect(clustered.rows.length).toBe(5);
    for (const row of clustered.rows) {
      const duel = duelRows.get(row.model)!;
      const loose = looseRows.get(row.model)!;
      expect(row.rating, row.model).toBeCloseTo(duel.rating, 6);
      expect(row.seSandwich / duel.seSandwich, row.model).toBeCloseTo(1, 6);
      expect(row.seSandwich / loose.seSandwich, row.model).toBeCloseTo(Math.sqrt(TURNS), 6);
      expect(row.ciHigh - row.ciLow).toBeGreaterThan(loose.ciHigh - loose.ciLow);
    }
    expect(clustered.weighting!.designEffect).toBeCloseTo(TURNS, 4);
  });
});
