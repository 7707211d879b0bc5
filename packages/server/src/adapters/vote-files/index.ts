/** Vote files on disk (JSONL, JSON arrays, gzip, Parquet) read into ranking vote tables. */
export { readVoteFile } from './read-vote-file';
export type { ReadVoteFileOptions, VoteFileContents } from './vote-file-contents';
export { VoteFileError } from './vote-file-error';
export { JsonLineReader, readRecordFile, type RecordFileShape, type RecordSink } from './record-file';
