import { VoteTableBuilder } from '../../domain/ranking/vote-table';
import { JsonLineReader } from './record-file';
import { VoteFileError } from './vote-file-error';
import {
  createRowConverter,
  detectFormat,
  VoteRowError,
  type ConvertedRow,
  type RowOptions,
  type SkipReason,
  type VoteFileFormat,
} from '../../domain/ranking/vote-formats';

/** Turns records into votes, detecting the format on the first one. */
export class VoteCollector {
  readonly builder = new VoteTableBuilder(1 << 16);
  readonly skipped: Record<SkipReason, number> = { flagged: 0, duplicate: 0, no_outcome: 0 };
  records = 0;
  format: VoteFileFormat | undefined;
  private convert: ((record: Record<string, unknown>) => ConvertedRow) | undefined;
  private lastA = '';
  private lastAIndex = -1;

  /** `styleCounts` false: the rows' style counts are checked but not kept (ReadVoteFileOptions.styleCounts). */
  constructor(
    private readonly path: string,
    private readonly options: RowOptions,
    styleCounts = true,
  ) {
    this.lines = new JsonLineReader(path, (record, line) => this.add(record, line));
    if (!styleCounts) this.builder.leaveOutStyle();
  }

  /** Fixes the format up front (Parquet: from the column names). */
  useFormat(format: VoteFileFormat): void {
    this.format = format;
    this.convert = createRowConverter(format, this.options);
  }

  private readonly lines: JsonLineReader;

  /** Lines seen by {@link addText}, blank ones included. */
  get lineCount(): number {
    return this.lines.lineCount;
  }

  /** Adds the records of a block of whole JSON Lines. */
  addText(text: string): void {
    this.lines.addLines(text);
  }

  /**
   * Adds one record; `where` is its line number (JSON Lines) or a location such as "row 7",
   * used only in error messages.
   */
  add(record: unknown, where: number | string): void {
    this.records += 1;
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      throw new VoteFileError(this.path, locationOf(where), 'expected a JSON object');
    }
    const fields = record as Record<string, unknown>;
    try {
      if (!this.convert) this.useFormat(detectFormat(Object.keys(fields)));
      const row = this.convert!(fields);
      if (row.skip) {
        this.skipped[row.skip] += 1;
        return;
      }
      const { builder } = this;
      if (row.modelA !== this.lastA) {
        this.lastA = row.modelA;
        this.lastAIndex = builder.modelIndex(row.modelA);
      }
      builder.addIndexed(this.lastAIndex, builder.modelIndex(row.modelB), row.outcome, row.style);
    } catch (error) {
      if (error instanceof VoteRowError) throw new VoteFileError(this.path, locationOf(where), error.message);
      throw error;
    }
  }
}

function locationOf(where: number | string): string {
  return typeof where === 'number' ? `line ${where}` : where;
}

/** Reserves room for the votes of a file from its size and the line length of its first chunk. */
export function reserveForFile(collector: VoteCollector, firstChunk: Uint8Array, size: number): void {
  let lines = 0;
  for (let index = firstChunk.indexOf(0x0a); index >= 0; index = firstChunk.indexOf(0x0a, index + 1)) lines++;
  if (lines < 16) return;
  collector.builder.reserve(Math.ceil((size / firstChunk.length) * lines * 1.02) + 16);
}
