/** Vote files on disk (JSONL, JSON arrays, gzip, Parquet) read into ranking vote tables and ranked. */
export { readVoteFile, type ReadVoteFileOptions, type VoteFileContents } from './read-vote-file';
export { rankVoteFile, rankVoteTable, type RankedVotes, type RankVotesOptions } from './rank-votes';
export { VoteFileError } from './vote-file-error';
export { detectFormat, type VoteFileFormat, type SkipReason } from './vote-formats';
export { RankingError, type Leaderboard, type LeaderboardRow, type RankingVariant, type VoteTable } from '../../domain/ranking';
export { JsonLineReader, readRecordFile, type RecordFileShape, type RecordSink } from './record-file';
