import { describe, expect, it } from 'vitest';
import { aggregatePairs } from './aggregate-cells';
import { evaluateBradleyTerry, fitBradleyTerry } from './bradley-terry';
import { analyzeGraph } from './components';
import { fitStyleBradleyTerry } from './style-bradley-terry';
import { buildStyleDesign } from './style-features';
import { repeat, syntheticVotes, vote } from './test-votes';
import { buildVoteTable } from './vote-table';

describe('evaluateBradleyTerry', () => {
  it('has the gradient of its objective (finite differences)', () => {
    const pairs = aggregatePairs(buildVoteTable(syntheticVotes({ models: 5, votes: 400, seed: 1 }).votes));
    const theta = Float64Array.from([0.3, -0.2, 0.1, 0.5, -0.7]);
    const gradient = new Float64Array(5);
    evaluateBradleyTerry(pairs, theta, 0.01, gradient);
    for (let k = 0; k < 5; k++) {
      const up = theta.slice();
      const down = theta.slice();
      up[k]! += 1e-6;
      down[k]! -= 1e-6;
      const numeric = (evaluateBradleyTerry(pairs, up, 0.01) - evaluateBradleyTerry(pairs, down, 0.01)) / 2e-6;
      expect(gradient[k]).toBeCloseTo(numeric, 5);
    }
  });
});

describe('fitBradleyTerry', () => {
  const table = buildVoteTable(syntheticVotes({ models: 8, votes: 3000, seed: 2 }).votes);
  const pairs = aggregatePairs(table);
  const { components } = analyzeGraph(pairs);

  it('converges to a zero gradient in a few Newton steps, mean zero', () => {
    const fit = fitBradleyTerry(pairs, { lambdaTheta: 0, components });
    expect(fit.converged).toBe(true);
    expect(fit.iterations).toBeLessThanOrEqual(8);
    expect(fit.maxAbsGradient).toBeLessThan(1e-9);
    expect(fit.theta.reduce((a, b) => a + b, 0)).toBeCloseTo(0, 12);
  });

  it('gives the same optimum from a warm start, in fewer steps', () => {
    const cold = fitBradleyTerry(pairs, { lambdaTheta: 0, components });
    const warm = fitBradleyTerry(pairs, { lambdaTheta: 0, components, initialTheta: cold.theta.map((t) => t + 0.05) });
    expect(warm.iterations).toBeLessThan(cold.iterations);
    warm.theta.forEach((value, k) => expect(value).toBeCloseTo(cold.theta[k]!, 10));
  });

  it('puts a single tie opponent exactly level (docs/ranking.md#degenerate-data)', () => {
    const votes = [...repeat(3, 'a', 'b', 'model_a'), ...repeat(2, 'b', 'a', 'model_a'), vote('solo', 'a', 'tie')];
    const small = aggregatePairs(buildVoteTable(votes));
    const fit = fitBradleyTerry(small, { lambdaTheta: 0, components: analyzeGraph(small).components });
    expect(fit.theta[2]).toBeCloseTo(fit.theta[0]!, 12);
  });

  it('grows a never-beaten model logarithmically under the ridge: λθ_U = Σ n(1 − p)', () => {
    const votes = [...repeat(3, 'a', 'b', 'model_a'), ...repeat(2, 'b', 'a', 'model_a'), ...repeat(10, 'u', 'a', 'model_a')];
    const small = aggregatePairs(buildVoteTable(votes));
    const fit = fitBradleyTerry(small, { lambdaTheta: 1e-3, components: analyzeGraph(small).components });
    const u = 2;
    const p = 1 / (1 + Math.exp(-(fit.theta[u]! - fit.theta[0]!)));
    expect(1e-3 * fit.theta[u]!).toBeCloseTo(10 * (1 - p), 9);
  });
});

describe('fitStyleBradleyTerry', () => {
  it('recovers a length effect and agrees with plain BT when β is pinned near 0', () => {
    const { votes } = syntheticVotes({ models: 5, votes: 6000, seed: 8, lengthEffect: 1.5 });
    const table = buildVoteTable(votes);
    const design = buildStyleDesign(table);
    const { components } = analyzeGraph(aggregatePairs(table));
    const rows = design.rows;
    const fit = fitStyleBradleyTerry(rows, { lambdaTheta: 1e-3, lambdaBeta: 1e-3, components });
    expect(fit.converged).toBe(true);
    expect(fit.beta[0]).toBeGreaterThan(0.2);
    const pinned = fitStyleBradleyTerry(rows, { lambdaTheta: 1e-3, lambdaBeta: 1e9, components });
    const plain = fitBradleyTerry(aggregatePairs(table), { lambdaTheta: 1e-3, components });
    pinned.theta.forEach((value, k) => expect(value).toBeCloseTo(plain.theta[k]!, 6));
  });
});
