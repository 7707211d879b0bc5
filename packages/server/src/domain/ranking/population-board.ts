import { computeLeaderboard, type Leaderboard } from './leaderboard';
import { DEFAULT_RAKING, type Margin, type RakingOptions, type RakingResult, rakeWeights } from './raking';
import { buildVoteTable, type PairwiseVote } from './vote-table';

/*
 * The board weighted to the population (docs/ranking.md#population-board): the votes of visitors
 * who answered the survey, each weighing its visitor's raking weight, clustered by visitor (a
 * visitor's votes are not independent), so that the intervals carry the design effect.
 */

/** Below either count the weighted board is not shown: too few answers make weights, and intervals, unstable. */
export interface PopulationThreshold {
  /** Votes cast by answering visitors. */
  minVotes: number;
  /** Answering visitors (who answered every question). */
  minVisitors: number;
}

export const DEFAULT_POPULATION_THRESHOLD: PopulationThreshold = { minVotes: 1000, minVisitors: 100 };

/** A counted vote of the main board, and who cast it. */
export interface PopulationVote extends PairwiseVote {
  visitor: string;
}

/** What the board says about its weights, shown or not. */
export interface PopulationCounts {
  /** Counted votes of the main board, answered or not. */
  votes: number;
  /** Of them, those whose visitor answered every question. */
  answeredVotes: number;
  answeredVisitors: number;
}

export type PopulationBoard =
  | { shown: false; reason: 'too_few_votes' | 'too_few_visitors' | 'margin_unreachable'; counts: PopulationCounts }
  | { shown: true; counts: PopulationCounts; leaderboard: Leaderboard; raking: RakingResult };

/**
 * Ranks the answering visitors' votes with their raking weights. `answers` maps a visitor to its
 * option index per question, in the margins' order; votes of other visitors only count in `votes`.
 */
export function populationBoard(
  votes: readonly PopulationVote[],
  answers: ReadonlyMap<string, readonly number[]>,
  margins: readonly Margin[],
  settings: { threshold?: PopulationThreshold; raking?: RakingOptions } = {},
): PopulationBoard {
  const threshold = settings.threshold ?? DEFAULT_POPULATION_THRESHOLD;
  // Self-play is dropped by the vote table: left out here too, so that rows and weights line up.
  const answered = votes.filter((vote) => answers.has(vote.visitor) && vote.modelA !== vote.modelB);
  const visitors = [...new Set(answered.map((vote) => vote.visitor))];
  const counts = { votes: votes.length, answeredVotes: answered.length, answeredVisitors: visitors.length };
  if (answered.length < threshold.minVotes) return { shown: false, reason: 'too_few_votes', counts };
  if (visitors.length < threshold.minVisitors) return { shown: false, reason: 'too_few_visitors', counts };
  const respondents = visitors.map((visitor) => answers.get(visitor)!);
  if (!reachable(respondents, margins)) return { shown: false, reason: 'margin_unreachable', counts };
  const raking = rakeWeights(respondents, margins, settings.raking ?? DEFAULT_RAKING);
  const indexOf = new Map(visitors.map((visitor, index) => [visitor, index]));
  const cluster = Int32Array.from(answered, (vote) => indexOf.get(vote.visitor)!);
  const weight = Float64Array.from(cluster, (index) => raking.weights[index]!);
  const leaderboard = computeLeaderboard(buildVoteTable(answered), { weighting: { weight, cluster } });
  return { shown: true, counts, leaderboard, raking };
}

/** Every option with a reference share has a respondent (else raking cannot meet it). */
function reachable(respondents: readonly (readonly number[])[], margins: readonly Margin[]): boolean {
  return margins.every((margin, question) =>
    margin.shares.every((share, option) => share === 0 || respondents.some((answer) => answer[question] === option)),
  );
}
