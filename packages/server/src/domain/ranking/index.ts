/**
 * Leaderboard ranking (docs/ranking.md): Bradley–Terry variants with ties as ½, existence check
 * and provisional models, Newton fits, sandwich/Hessian errors, bootstrap, rank bounds, tiers,
 * style control, arena vote conversion and pairing weights. Pure: no I/O, clock or hidden
 * randomness.
 *
 * A leaderboard service calls, with stored votes:
 * `computeLeaderboard(buildVoteTable(matchesFromArenaVotes(votes).matches), options)`.
 */
export {
  OUTCOME_CODE,
  OUTCOME_LABEL,
  STYLE_FEATURES,
  VoteTableBuilder,
  buildVoteTable,
  concatVoteTables,
  type PairwiseVote,
  type StyleCounts,
  type StyleFeature,
  type VoteOutcome,
  type VoteTable,
} from './vote-table';
export { aggregatePairs, countCells, tallyModels, type ModelTally, type PairCounts } from './aggregate-cells';
export { analyzeGraph, type GraphAnalysis } from './components';
export { evaluateBradleyTerry, fitBradleyTerry, type BradleyTerryFit } from './bradley-terry';
export { bradleyTerryCovariance, type StrengthCovariance } from './standard-errors';
export { fitStyleBradleyTerry, type StyleFit, type StyleRows } from './style-bradley-terry';
export { buildStyleDesign, countStyleElements, type StyleDesign, type StyleRule, type TokenCounter } from './style-features';
export { bootstrapBradleyTerry, bootstrapStyleBradleyTerry, quantile, summarizeReplicates, type BootstrapSamples } from './bootstrap';
export { sampleBinomial, sampleMultinomial } from './binomial';
export { createSeededRandom, deriveSeed, type RandomSource } from './seeded-random';
export { SCALE, toRating } from './gauge';
export { checkWeighting, type VoteWeighting, type WeightingSummary } from './weighting';
export { Z_95, competitionRanks, overlapTiers, rankBoundsFromIntervals, type RankBounds } from './ranks-and-tiers';
export {
  RANKING_VARIANT_NAMES,
  RANKING_VARIANTS,
  coreCentered,
  fitVariant,
  missingMleReason,
  prepareRanking,
  type RankingData,
  type RankingVariant,
  type StyleCoefficients,
  type VariantDefinition,
  type VariantFit,
} from './variants';
export { computeLeaderboard, type Leaderboard, type LeaderboardOptions, type LeaderboardRow } from './leaderboard';
export {
  DEFAULT_EXCLUDED_FLAGS,
  matchesFromArenaVotes,
  matchesFromReactions,
  type ArenaChoice,
  type ArenaMatches,
  type ArenaReaction,
  type ArenaVote,
} from './arena-matches';
export {
  drawPair,
  pairWeights,
  type PairWeight,
  type PairWeightOptions,
  type PairingCandidate,
  type PairingMode,
} from './sampling-weights';
export { RankingError, type RankingErrorCode } from './ranking-error';
