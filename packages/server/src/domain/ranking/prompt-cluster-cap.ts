import type { VoteColumns } from './vote-columns';
import type { VoteWeighting } from './weighting';

/*
 * Duplicate prompts on a board (docs/ranking.md#duplicate-prompts). A pasted prompt, or a class
 * asking the same question, must not dominate a small language's board: (a) a visitor's votes on
 * one prompt cluster count once, the earliest; (b) a cluster's votes on a board weigh together at
 * most the cap, their weights scaled down alike (the fit's weighted objective, weighting.ts), and
 * they are one cluster for the sandwich intervals, since they are not independent.
 */

/** A cluster's votes weigh at most max(MIN_VOTES, SHARE × the board's votes) together. */
export const PROMPT_CLUSTER_CAP = { minVotes: 5, share: 0.01 } as const;

/** The cap on a board of `votes` votes. */
export function promptClusterCap(votes: number): number {
  return Math.max(PROMPT_CLUSTER_CAP.minVotes, PROMPT_CLUSTER_CAP.share * votes);
}

/**
 * `counted` with each visitor's later votes on a prompt cluster left out: the earliest counted
 * vote of each (visitor, cluster) stays (the lower row on a tie). Votes without a visitor (imported)
 * or without a cluster are untouched. Returns `counted` itself when nothing is left out.
 */
export function firstVotePerVisitorCluster(
  columns: Pick<VoteColumns, 'length' | 'visitor' | 'promptCluster' | 'promptClusters' | 'createdAtMs'>,
  counted: Uint8Array,
): Uint8Array {
  const first = new Map<number, number>();
  let later: Uint8Array | undefined;
  for (let row = 0; row < columns.length; row++) {
    const visitor = columns.visitor[row]!;
    const cluster = columns.promptCluster[row]!;
    if (counted[row] !== 1 || visitor < 0 || cluster < 0) continue;
    const key = visitor * columns.promptClusters + cluster;
    const kept = first.get(key);
    if (kept === undefined) {
      first.set(key, row);
      continue;
    }
    later ??= new Uint8Array(columns.length);
    // Rows follow the store's order of first sight, not always the votes' times: the earlier vote stays.
    if (columns.createdAtMs[row]! < columns.createdAtMs[kept]!) {
      later[kept] = 1;
      first.set(key, row);
    } else later[row] = 1;
  }
  if (!later) return counted;
  return counted.map((value, row) => (later[row] === 1 ? 0 : value));
}

/**
 * The weighting of a board's vote table from its rows' prompt clusters (-1: none): the votes of a
 * cluster past the cap weigh cap / n each, and each capped cluster is one cluster of the intervals
 * (the other votes their own). Undefined when no cluster passes the cap: the board is then fitted
 * exactly as without duplicates.
 */
export function promptClusterWeighting(clusters: Int32Array): VoteWeighting | undefined {
  const sizes = new Map<number, number>();
  for (const cluster of clusters) if (cluster >= 0) sizes.set(cluster, (sizes.get(cluster) ?? 0) + 1);
  const cap = promptClusterCap(clusters.length);
  const capped = new Map<number, number>();
  for (const [cluster, size] of sizes) if (size > cap) capped.set(cluster, capped.size);
  if (capped.size === 0) return undefined;
  const weight = new Float64Array(clusters.length).fill(1);
  const cluster = new Int32Array(clusters.length);
  clusters.forEach((value, row) => {
    const group = capped.get(value);
    if (group === undefined) cluster[row] = capped.size + row;
    else {
      weight[row] = cap / sizes.get(value)!;
      cluster[row] = group;
    }
  });
  return { weight, cluster };
}

/** The columns with no vote in a prompt cluster (the rules above then change nothing): `AGORA_LEADERBOARD_PROMPT_DEDUP=0`. */
export function withoutPromptClusters<T extends Pick<VoteColumns, 'length' | 'promptCluster'>>(columns: T): T {
  return { ...columns, promptCluster: new Int32Array(columns.length).fill(-1) };
}
