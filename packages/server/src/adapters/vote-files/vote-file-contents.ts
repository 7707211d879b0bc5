import type { VoteTable } from '../../domain/ranking/vote-table';
import type { SkipReason, VoteFileFormat } from '../../domain/ranking/vote-formats';

/*
 * What reading a vote file is asked and what it gives back, apart from the readers: the whole-file
 * reader (read-vote-file.ts) and the parallel JSON Lines reader it calls (parallel-jsonl.ts) both
 * speak them, so neither imports the other's types back.
 */

/** Options of `readVoteFile` (read-vote-file.ts). */
export interface ReadVoteFileOptions {
  /** Flags that leave a row out (default `identity_leak` and `abuse`); [] keeps every row. */
  excludeFlags?: readonly string[] | undefined;
  /**
   * Count style features from the conversation text of rows that carry no counts (tokens with
   * cl100k_base, FastChat's markdown rules). Slow; only needed for style control.
   */
  styleFromText?: boolean | undefined;
  /**
   * Parse large uncompressed JSON Lines files on several threads (default true; only files above
   * 1 GB whose rows carry no cross-row state, i.e. not compar:IA votes).
   */
  parallel?: boolean | undefined;
  /** Smallest file parsed in parallel, in bytes (default 1 GB; tests lower it). */
  parallelMinBytes?: number | undefined;
  /**
   * Keep the rows' style counts in the table (default true). Without them (a ranking without
   * style control) the counts are still read and checked, so a bad one stops the read as before.
   */
  styleCounts?: boolean | undefined;
}

/** What reading a vote file produced. */
export interface VoteFileContents {
  table: VoteTable;
  format: VoteFileFormat;
  container: 'jsonl' | 'json-array' | 'parquet';
  gzip: boolean;
  /** Records (lines, elements or rows) read. */
  records: number;
  /** Valid records that are not votes: flagged, duplicate conversation pair, or no outcome. */
  skipped: Record<SkipReason, number>;
}
