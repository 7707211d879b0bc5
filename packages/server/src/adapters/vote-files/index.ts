/** Vote files on disk (JSONL, JSON arrays, gzip, Parquet) read into ranking vote tables. */
export { readVoteFile, type ReadVoteFileOptions, type VoteFileContents } from './read-vote-file';
export { VoteFileError } from './vote-file-error';
export { JsonLineReader, readRecordFile, type RecordFileShape, type RecordSink } from './record-file';
