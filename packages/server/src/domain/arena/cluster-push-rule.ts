/**
 * The cluster-push rule (docs/arena.md#vote-integrity): one near-duplicate prompt cluster voted on
 * from many cookies in a short time. A campaign that pastes one prompt from fresh cookies passes
 * every per-visitor rule and the one-vote-per-visitor-and-cluster count; its votes still pile up on
 * one cluster within minutes. Flagged: every vote of a window of at most `windowMs` in which at
 * least `visitors` distinct visitors voted on the cluster. A class asking one question together is
 * flagged too, on purpose: it must not dominate a small language's board either (the reviewers can
 * count those votes again).
 */

export interface ClusterPushColumns {
  length: number;
  arena: Uint8Array;
  visitor: Int32Array;
  createdAtMs: Float64Array;
  /** Dense cluster number of each vote, -1 when none (domain/ranking/vote-columns.ts); absent: the rule judges nothing. */
  promptCluster?: Int32Array | undefined;
}

export interface ClusterPushRule {
  /** Distinct visitors on one cluster within the window from which its votes are flagged. */
  visitors: number;
  windowMs: number;
}

export const DEFAULT_CLUSTER_PUSH_RULE: ClusterPushRule = { visitors: 20, windowMs: 30 * 60_000 };

/** The rows of arena votes in a pushed cluster's windows (see above). */
export function clusterPushRows(votes: ClusterPushColumns, rule: ClusterPushRule): number[] {
  const clusters = votes.promptCluster;
  if (!clusters) return [];
  const byCluster = new Map<number, number[]>();
  for (let row = 0; row < votes.length; row++) {
    if (votes.arena[row] !== 1 || clusters[row]! < 0 || votes.visitor[row]! < 0 || Number.isNaN(votes.createdAtMs[row]!)) continue;
    const rows = byCluster.get(clusters[row]!);
    if (rows) rows.push(row);
    else byCluster.set(clusters[row]!, [row]);
  }
  const flagged = new Set<number>();
  for (const rows of byCluster.values()) if (rows.length >= rule.visitors) pushedRows(votes, rows, rule, flagged);
  return [...flagged];
}

/** Slides a window over one cluster's votes in time order, counting the distinct visitors in it. */
function pushedRows(votes: ClusterPushColumns, rows: number[], rule: ClusterPushRule, flagged: Set<number>): void {
  rows.sort((left, right) => votes.createdAtMs[left]! - votes.createdAtMs[right]! || left - right);
  const inWindow = new Map<number, number>();
  let start = 0;
  for (let end = 0; end < rows.length; end++) {
    const visitor = votes.visitor[rows[end]!]!;
    inWindow.set(visitor, (inWindow.get(visitor) ?? 0) + 1);
    while (votes.createdAtMs[rows[end]!]! - votes.createdAtMs[rows[start]!]! > rule.windowMs) {
      const leaving = votes.visitor[rows[start]!]!;
      const left = inWindow.get(leaving)! - 1;
      if (left === 0) inWindow.delete(leaving);
      else inWindow.set(leaving, left);
      start++;
    }
    if (inWindow.size >= rule.visitors) for (let index = start; index <= end; index++) flagged.add(rows[index]!);
  }
}
