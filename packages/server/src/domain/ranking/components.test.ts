import { describe, expect, it } from 'vitest';
import { aggregatePairs } from './aggregate-cells';
import { analyzeGraph } from './components';
import { repeat, vote } from './test-votes';
import { buildVoteTable } from './vote-table';

const analyze = (votes: Parameters<typeof buildVoteTable>[0]) => {
  const table = buildVoteTable(votes);
  const graph = analyzeGraph(aggregatePairs(table));
  const names = (groups: number[][]) => groups.map((group) => group.map((model) => table.models[model]));
  return {
    ...graph,
    weak: names(graph.components),
    strong: names(graph.strongComponents),
    provisionalNames: table.models.filter((_, i) => graph.provisional[i]),
  };
};

describe('analyzeGraph', () => {
  it('counts a tie as win mass both ways', () => {
    const graph = analyze([vote('a', 'b', 'model_a'), vote('a', 'b', 'tie')]);
    expect(graph.mleExists).toBe(true);
    expect(graph.strong).toEqual([['a', 'b']]);
  });

  it('finds a chain that never closes: no MLE, the group outside the largest SCC is provisional', () => {
    const graph = analyze([
      ...repeat(2, 'a', 'b', 'model_a'),
      ...repeat(2, 'b', 'c', 'model_a'),
      ...repeat(2, 'c', 'a', 'model_a'),
      vote('d', 'a', 'model_a'),
      vote('e', 'd', 'model_a'),
    ]);
    expect(graph.mleExists).toBe(false);
    expect(graph.strong).toEqual([['a', 'b', 'c'], ['d'], ['e']]);
    expect(graph.provisionalNames).toEqual(['d', 'e']);
  });

  it('flags a whole component when no strong component is the largest', () => {
    const graph = analyze([...repeat(3, 'a', 'b', 'model_a'), ...repeat(2, 'c', 'd', 'tie'), vote('d', 'c', 'model_a')]);
    expect(graph.weak).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(graph.provisionalNames).toEqual(['a', 'b']);
  });

  it('handles long chains without recursion limits', () => {
    const votes = Array.from({ length: 5000 }, (_, i) => vote(`m${i}`, `m${i + 1}`, 'model_a'));
    const graph = analyze(votes);
    expect(graph.strong).toHaveLength(5001);
    expect(graph.mleExists).toBe(false);
  });
});
