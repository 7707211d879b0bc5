import { describe, expect, it } from 'vitest';
import { viewKey } from '../../domain/ranking/leaderboard-views';
import { RankingVoteColumns } from '../../domain/ranking/vote-columns';
import { WorkerRankingComputer } from './ranking-computer';

function columns() {
  const kept = new RankingVoteColumns();
  const models = ['m-a', 'm-b', 'm-c'];
  for (let index = 0; index < 60; index++)
    kept.put({
      view: {
        vote: { modelA: models[index % 3]!, modelB: models[(index + 1) % 3]!, choice: index % 4 === 0 ? 'b' : 'a' },
        language: 'fr',
        mode: 'random',
        categories: [],
      },
    });
  const built = kept.view();
  return { built, counted: new Uint8Array(built.length).fill(1) };
}

const views = [{ key: viewKey({ style: 'plain' }), style: 'plain' as const, language: null, mode: null, category: null }];

describe('the ranking worker', () => {
  it('stops when idle, giving its memory back, and starts again for the next refresh', async () => {
    const computer = new WorkerRankingComputer(100);
    try {
      const first = columns();
      const ranked = await computer.computeViews(first.built, first.counted, views);
      expect(ranked.get(views[0]!.key)!.nVotesUsed).toBe(60);
      // Shared, not transferred: the caller still holds the columns, in the same memory.
      expect(first.built.modelA.length).toBe(60);
      expect(first.built.modelA.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect((computer as unknown as { worker: unknown }).worker).toBeDefined();
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect((computer as unknown as { worker: unknown }).worker).toBeUndefined();
      const second = columns();
      expect((await computer.computeViews(second.built, second.counted, views)).get(views[0]!.key)!.nVotesUsed).toBe(60);
    } finally {
      await computer.close();
    }
  });
});
