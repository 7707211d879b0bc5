/*
 * The typed columns the live leaderboard's vote columns are made of (vote-columns.ts), and the
 * interner of their names: split from it to keep each file a readable size.
 */

/** The most votes the columns hold (their buffers reserve address space, not memory, for this many). */
export const MAX_COLUMN_VOTES = 2 ** 26;

type Typed = Int32Array | Int16Array | Uint8Array | Uint16Array | Uint32Array | Float32Array | Float64Array;
interface TypedConstructor<T extends Typed> {
  new (buffer: SharedArrayBuffer, byteOffset?: number, length?: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** One column in a growable SharedArrayBuffer, `perRow` values a vote. */
export class Column<T extends Typed> {
  private readonly buffer: SharedArrayBuffer;
  /** Tracks the buffer's length as it grows. */
  readonly values: T;

  constructor(
    private readonly Type: TypedConstructor<T>,
    private readonly perRow: number,
  ) {
    this.buffer = new SharedArrayBuffer(0, { maxByteLength: MAX_COLUMN_VOTES * perRow * Type.BYTES_PER_ELEMENT });
    this.values = new Type(this.buffer);
  }

  /** Room for `rows` votes. Grows by a quarter at least, to keep the calls few; the pages are only touched when written. */
  reserve(rows: number): void {
    const bytes = rows * this.perRow * this.Type.BYTES_PER_ELEMENT;
    if (bytes <= this.buffer.byteLength) return;
    if (rows > MAX_COLUMN_VOTES) throw new Error(`the live leaderboard holds at most ${MAX_COLUMN_VOTES} votes`);
    this.buffer.grow(Math.min(this.buffer.maxByteLength, Math.max(bytes, Math.ceil((this.buffer.byteLength * 1.25) / 65_536) * 65_536)));
  }

  /** The first `rows` votes' values, sharing the memory. */
  view(rows: number): T {
    return new this.Type(this.buffer, 0, rows * this.perRow);
  }
}

export class Interner {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();

  constructor(private readonly limit = Number.POSITIVE_INFINITY) {}

  of(name: string): number {
    let found = this.index.get(name);
    if (found === undefined) {
      found = this.names.length;
      if (found >= this.limit) throw new Error(`more than ${this.limit} distinct values in a vote column`);
      this.index.set(name, found);
      this.names.push(name);
    }
    return found;
  }
}
