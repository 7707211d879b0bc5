import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit';

describe('GroupCommit', () => {
  it('commits the writes of one turn of the event loop together, and those that arrive during a commit in the next group', async () => {
    const groups: number[][] = [];
    let release: (() => void) | undefined;
    const writer = new GroupCommit<number, number>(async (items) => {
      groups.push(items);
      if (groups.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items.map((item) => item * 10);
    });
    const first = [writer.submit(1), writer.submit(2), writer.submit(3)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(groups).toEqual([[1, 2, 3]]);
    const second = [writer.submit(4), writer.submit(5)];
    let settled = false;
    void Promise.all(first).then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    // Nobody is answered before their group has committed.
    expect(settled).toBe(false);
    release!();
    expect(await Promise.all(first)).toEqual([10, 20, 30]);
    expect(await Promise.all(second)).toEqual([40, 50]);
    expect(groups).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('tries each write of a failed group alone, so that one bad write fails only its own caller', async () => {
    const groups: number[][] = [];
    const writer = new GroupCommit<number, number>(async (items) => {
      groups.push(items);
      if (items.includes(2)) throw new Error('bad write');
      return items;
    });
    const outcomes = await Promise.allSettled([writer.submit(1), writer.submit(2), writer.submit(3)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(groups).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('keeps groups under the maximum size', async () => {
    const groups: number[][] = [];
    const writer = new GroupCommit<number, number>(async (items) => {
      groups.push(items);
      return items;
    }, 2);
    await Promise.all([1, 2, 3, 4, 5].map((item) => writer.submit(item)));
    expect(groups).toEqual([[1, 2], [3, 4], [5]]);
  });
});
