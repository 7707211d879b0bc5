import { describe, expect, it } from 'vitest';
import { clusterPushRows } from './cluster-push-rule';

/** Votes as columns: [visitor, cluster, minute] each, all arena votes. */
function columns(votes: readonly [number, number, number][]) {
  return {
    length: votes.length,
    arena: new Uint8Array(votes.length).fill(1),
    visitor: Int32Array.from(votes, ([visitor]) => visitor),
    promptCluster: Int32Array.from(votes, ([, cluster]) => cluster),
    createdAtMs: Float64Array.from(votes, ([, , minute]) => minute * 60_000),
  };
}
const RULE = { visitors: 5, windowMs: 10 * 60_000 };

describe('the cluster-push rule', () => {
  it('flags every vote of a window where enough distinct visitors voted on one cluster, and no other', () => {
    // Cluster 7: five visitors within 4 minutes (flagged), then one an hour later (not).
    const pushed: [number, number, number][] = [0, 1, 2, 3, 4].map((visitor) => [visitor, 7, visitor]);
    const votes = columns([...pushed, [9, 7, 60], [1, 8, 0], [2, 8, 1]]);
    expect(clusterPushRows(votes, RULE).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
  });

  it('counts visitors, not votes, and only within the window', () => {
    // One visitor voting ten times on a cluster; five visitors spread over an hour.
    const repeated = columns(Array.from({ length: 10 }, (_, minute) => [1, 3, minute] as [number, number, number]));
    expect(clusterPushRows(repeated, RULE)).toEqual([]);
    const spread = columns([0, 1, 2, 3, 4].map((visitor) => [visitor, 3, visitor * 15] as [number, number, number]));
    expect(clusterPushRows(spread, RULE)).toEqual([]);
  });

  it('judges nothing without clusters, nor votes without one or not the arena’s', () => {
    const votes = columns([0, 1, 2, 3, 4].map((visitor) => [visitor, -1, visitor] as [number, number, number]));
    expect(clusterPushRows(votes, RULE)).toEqual([]);
    expect(clusterPushRows({ ...votes, promptCluster: undefined }, RULE)).toEqual([]);
    const imported = columns([0, 1, 2, 3, 4].map((visitor) => [visitor, 2, visitor] as [number, number, number]));
    imported.arena[4] = 0;
    expect(clusterPushRows(imported, RULE)).toEqual([]);
  });
});
