import { describe, expect, it } from 'vitest';
import { buildVoteTable, concatVoteTables, type PairwiseVote } from './vote-table';

const counts = (len: number) => ({ len, headers: 1, lists: 2, bold: 3 });
const styled = (modelA: string, modelB: string, lenA: number): PairwiseVote => ({
  modelA,
  modelB,
  outcome: 'model_a',
  style: { a: counts(lenA), b: counts(7) },
});

describe('vote tables', () => {
  it('indexes models in sorted order and keeps 16-bit style counts while they fit', () => {
    const table = buildVoteTable([styled('zeta', 'alpha', 10), styled('alpha', 'mid', 20)]);
    expect(table.models).toEqual(['alpha', 'mid', 'zeta']);
    expect([...table.modelA]).toEqual([2, 0]);
    expect(table.style).toBeInstanceOf(Uint16Array);
  });

  it('widens the style counts to 32 bits when a count does not fit, keeping earlier rows', () => {
    const table = buildVoteTable([styled('a', 'b', 10), styled('a', 'b', 70_000), styled('b', 'a', 5)]);
    expect(table.style).toBeInstanceOf(Uint32Array);
    expect([0, 1, 2].map((row) => table.style![row * 8])).toEqual([10, 70_000, 5]);
  });

  it('concatenates parts in order with merged model indices', () => {
    const first = buildVoteTable([styled('b', 'c', 1), { modelA: 'x', modelB: 'x', outcome: 'tie' }]);
    const second = buildVoteTable([styled('a', 'b', 70_000)]);
    const merged = concatVoteTables([first, second]);
    expect(merged.models).toEqual(['a', 'b', 'c']);
    expect([...merged.modelA]).toEqual([1, 0]);
    expect([...merged.modelB]).toEqual([2, 1]);
    expect(merged.style).toBeInstanceOf(Uint32Array);
    expect(merged.style![8]).toBe(70_000);
    expect(merged).toMatchObject({ length: 2, votesRaw: 3, selfPlayDropped: 1, votesWithStyle: 2 });
  });
});
