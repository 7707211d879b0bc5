import { VoteTableBuilder } from '../../domain/ranking/vote-table';
import { VoteFileError } from './vote-file-error';
import {
  createRowConverter,
  detectFormat,
  VoteRowError,
  type ConvertedRow,
  type RowOptions,
  type SkipReason,
  type VoteFileFormat,
} from './vote-formats';

/** Turns records into votes, detecting the format on the first one. */
export class VoteCollector {
  readonly builder = new VoteTableBuilder(1 << 16);
  readonly skipped: Record<SkipReason, number> = { flagged: 0, duplicate: 0, no_outcome: 0 };
  records = 0;
  format: VoteFileFormat | undefined;
  private convert: ((record: Record<string, unknown>) => ConvertedRow) | undefined;
  private lastA = '';
  private lastAIndex = -1;

  constructor(
    private readonly path: string,
    private readonly options: RowOptions,
  ) {}

  /** Fixes the format up front (Parquet: from the column names). */
  useFormat(format: VoteFileFormat): void {
    this.format = format;
    this.convert = createRowConverter(format, this.options);
  }

  /** Lines seen by {@link addText}, blank ones included. */
  lineCount = 0;

  /**
   * Adds the lines of a block of JSON Lines text (whole lines only). Blank lines are skipped but
   * counted, so error messages give the file's line numbers. (`JSON.parse` per line measured
   * faster than hand-written or regex field extraction: V8 builds these small objects in C++.)
   */
  addText(text: string): void {
    let position = 0;
    while (position < text.length) {
      this.lineCount += 1;
      let newline = text.indexOf('\n', position);
      if (newline < 0) newline = text.length;
      const line = text.slice(position, newline);
      position = newline + 1;
      const first = line.charCodeAt(0);
      if (first !== 0x7b && line.trim().length === 0) continue;
      this.add(parseJson(this.path, line, `line ${this.lineCount}`), this.lineCount);
    }
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

/** JSON.parse with the file and line in the error. */
export function parseJson(path: string, text: string, location: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new VoteFileError(path, location, `invalid JSON (${(error as Error).message})`);
  }
}

/** Reserves room for the votes of a file from its size and the line length of its first chunk. */
export function reserveForFile(collector: VoteCollector, firstChunk: Uint8Array, size: number): void {
  let lines = 0;
  for (let index = firstChunk.indexOf(0x0a); index >= 0; index = firstChunk.indexOf(0x0a, index + 1)) lines++;
  if (lines < 16) return;
  collector.builder.reserve(Math.ceil(((size / firstChunk.length) * lines) * 1.02) + 16);
}
