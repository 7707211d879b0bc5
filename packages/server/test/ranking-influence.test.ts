import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { aggregatePairs, analyzeGraph, buildVoteTable, fitBradleyTerry, SCALE, type VoteOutcome } from '../src/domain/ranking';
import { computeInfluence, type GroupedVoteTable, leaveGroupsOut } from '../src/domain/ranking/influence';
import { planOverlappingNeighbours, planSeparation } from '../src/domain/ranking/influence-planner';
import { INFLUENCE_RANKING_FIXTURES } from './reference-fixtures';

interface FixtureVote {
  model_a: string;
  model_b: string;
  outcome: VoteOutcome;
  visitor: string;
}
interface Expected {
  ratings: number[];
  groups: Record<string, { votes: number; refit_points: number[]; step_points: number[] }>;
}

const votes = JSON.parse(readFileSync(`${INFLUENCE_RANKING_FIXTURES}votes.json`, 'utf8')) as FixtureVote[];
const expected = JSON.parse(readFileSync(`${INFLUENCE_RANKING_FIXTURES}expected.json`, 'utf8')) as Expected;

function grouped(rows: readonly FixtureVote[]): GroupedVoteTable {
  const groupNames = [...new Set(rows.map((vote) => vote.visitor))].sort();
  const table = buildVoteTable(rows.map((vote) => ({ modelA: vote.model_a, modelB: vote.model_b, outcome: vote.outcome })));
  return { table, groupNames, group: Int32Array.from(rows, (vote) => groupNames.indexOf(vote.visitor)) };
}

/** The displayed ratings (mean 1000, every model is core here) of a full refit of `rows`. */
function refitRatings(rows: readonly FixtureVote[]): number[] {
  const pairs = aggregatePairs(grouped(rows).table);
  const { theta } = fitBradleyTerry(pairs, { lambdaTheta: 0, components: analyzeGraph(pairs).components });
  return Array.from(theta, (value) => 1000 + SCALE * value);
}

/**
 * One Newton step from the full optimum is exact to first order: its error is of the order of the
 * squared change. The oracle measured at most 0.16 point for an honest visitor (changes ≤ 10.4
 * points) and 1.9 points for the 40-vote push (58 points). Tolerance: 5 % of the largest change
 * plus 0.02 point.
 */
const stepTolerance = (refit: readonly number[]) => 0.05 * Math.max(...refit.map(Math.abs)) + 0.02;

describe('rank influence, leave one visitor out by one Newton step', () => {
  const input = grouped(votes);
  const { fit, changes } = leaveGroupsOut(input);

  it('fits the board the oracle fits', () => {
    expected.ratings.forEach((rating, model) => expect(fit.ratings[model]).toBeCloseTo(rating, 8));
  });

  it("matches the oracle's Newton step (pseudo-inverse) to rounding, in both the Woodbury and the direct path", () => {
    for (const [name, group] of Object.entries(expected.groups)) {
      const change = changes[input.groupNames.indexOf(name)]!;
      expect(change.votes).toBe(group.votes);
      group.step_points.forEach((points, model) => expect(change.points[model]).toBeCloseTo(points, 7));
    }
  });

  it("is within the stated tolerance of the oracle's refit for every visitor", () => {
    for (const [name, group] of Object.entries(expected.groups)) {
      const change = changes[input.groupNames.indexOf(name)]!;
      const tolerance = stepTolerance(group.refit_points);
      group.refit_points.forEach((points, model) => expect(Math.abs(change.points[model]! - points)).toBeLessThanOrEqual(tolerance));
    }
  });

  it('agrees with fitBradleyTerry refitted without a sample of groups', () => {
    const full = refitRatings(votes);
    for (const name of ['push', 'v00', 'v11', 'v23', 'v39']) {
      const without = refitRatings(votes.filter((vote) => vote.visitor !== name));
      const refit = without.map((rating, model) => rating - full[model]!);
      const change = changes[input.groupNames.indexOf(name)]!;
      refit.forEach((points, model) => expect(Math.abs(change.points[model]! - points)).toBeLessThanOrEqual(stepTolerance(refit)));
    }
  });

  it('puts the pushing visitor first for the pushed model, with its votes, a rank change and an alert', () => {
    const report = computeInfluence(input, { top: 3 });
    const pushed = report.models.find((entry) => entry.model === 'm4')!;
    const first = pushed.groups[0]!;
    expect(first).toMatchObject({ group: 'push', votes: 40, votesOnModel: 40, alert: true });
    expect(first.points).toBeLessThan(-50);
    expect(first.rankAfter).toBeGreaterThan(first.rankBefore);
    expect(report.alerts[0]).toMatchObject({ group: 'push', model: 'm4' });
    expect(report.alerts.every((alert) => alert.group === 'push')).toBe(true);
    expect(report.undefinedGroups).toEqual([]);
  });

  it('says when a group holds all the votes of a model (its rating undefined without it)', () => {
    const lone: FixtureVote[] = [
      ...votes,
      { model_a: 'm9', model_b: 'm0', outcome: 'model_a', visitor: 'lone' },
      { model_a: 'm9', model_b: 'm1', outcome: 'model_b', visitor: 'lone' },
    ];
    expect(computeInfluence(grouped(lone)).undefinedGroups).toEqual(['lone']);
  });
});

describe('separation planner', () => {
  const a = { model: 'a', rating: 1020, halfWidth: 30, votes: 400 };
  const b = { model: 'b', rating: 1000, halfWidth: 30, votes: 400 };

  it('spreads: half-widths as 1/√N, so a gap of 20 against 60 of overlap needs N·(3² − 1) more votes', () => {
    expect(planSeparation(b, a, 1000)).toMatchObject({ higher: 'a', lower: 'b', gapPoints: 20, overlapPoints: 60, votesSpread: 8000 });
  });

  it('between the pair: the fewest k with 2·30·√(400/(400+k)) < 20, i.e. k > 3200', () => {
    expect(planSeparation(a, b, 1000).votesBetween).toBe(3201);
  });

  it('plans only neighbours whose intervals overlap, and none for a tie in rating', () => {
    const far = { model: 'c', rating: 800, halfWidth: 20, votes: 300 };
    expect(planOverlappingNeighbours([far, b, a], 1000).map((plan) => plan.lower)).toEqual(['b']);
    expect(planSeparation(a, { ...b, rating: 1020 }, 1000)).toMatchObject({ votesBetween: null, votesSpread: null });
  });
});
