import { type VoteOutcome, type VoteTable, VoteTableBuilder } from './vote-table';

/** A verdict on one turn as the ranking reads it (the store's choices: `a`, `b`, `both_good`, `both_bad`). */
export interface RankingTurnVerdict {
  duelId: string;
  turn: number;
  choice: 'a' | 'b' | 'both_good' | 'both_bad';
  modelA: string;
  modelB: string;
}

const OUTCOME_OF: Record<RankingTurnVerdict['choice'], VoteOutcome> = {
  a: 'model_a',
  b: 'model_b',
  both_good: 'tie',
  both_bad: 'both_bad',
};

/**
 * `agora leaderboard --unit turn`: each verdict is a vote (A better → model_a, B better → model_b,
 * both good → tie, both bad → both_bad), and the verdicts of one duel form one cluster. The turns of
 * a duel are not independent (one visitor, one pair of models, one conversation whose earlier turns
 * shape the later ones): counted as independent votes, a five-turn duel would narrow the intervals
 * as five visitors would. The core's cluster-robust sandwich (weighting.ts) sums the score per duel.
 * `clusters` has one number per row of `table` (self-play verdicts are left out of both).
 */
export function turnVerdictTable(verdicts: readonly RankingTurnVerdict[]): { table: VoteTable; clusters: Int32Array } {
  const builder = new VoteTableBuilder(verdicts.length);
  const clusterOfDuel = new Map<string, number>();
  const clusters: number[] = [];
  for (const verdict of verdicts) {
    builder.add({ modelA: verdict.modelA, modelB: verdict.modelB, outcome: OUTCOME_OF[verdict.choice] });
    // Self-play is dropped by the builder: it takes no row, hence no cluster number.
    if (verdict.modelA === verdict.modelB) continue;
    let cluster = clusterOfDuel.get(verdict.duelId);
    if (cluster === undefined) {
      cluster = clusterOfDuel.size;
      clusterOfDuel.set(verdict.duelId, cluster);
    }
    clusters.push(cluster);
  }
  return { table: builder.finish(), clusters: Int32Array.from(clusters) };
}
