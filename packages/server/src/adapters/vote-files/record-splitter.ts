import { QUOTE, BACKSLASH } from './json-bytes';

/** Receives one record's bytes [start, end) and its 1-based element number. */
export type RecordHandler = (bytes: Uint8Array, start: number, end: number, ordinal: number) => void;

/**
 * Cuts decoded JSON Lines text, fed in chunks of any size, into blocks of whole lines: each block
 * ends with a newline, except the last one given by {@link end}. Lines are never split.
 */
export class LineBlocks {
  private pending = '';

  constructor(private readonly onBlock: (text: string) => void) {}

  /**
   * Feeds the next piece of text. The line left over from the previous piece is completed and
   * handed over on its own, and the rest is handed over as a slice of `text`, so the blocks stay
   * flat strings (fast to scan) instead of concatenations.
   */
  push(text: string): void {
    let start = 0;
    if (this.pending.length > 0) {
      const firstNewline = text.indexOf('\n');
      if (firstNewline < 0) {
        this.pending += text;
        return;
      }
      this.onBlock(this.pending + text.slice(0, firstNewline + 1));
      this.pending = '';
      start = firstNewline + 1;
    }
    const lastNewline = text.lastIndexOf('\n');
    if (lastNewline >= start) this.onBlock(start === 0 && lastNewline === text.length - 1 ? text : text.slice(start, lastNewline + 1));
    this.pending = text.slice(Math.max(start, lastNewline + 1));
  }

  /** Ends the text; a last line without a final newline is still a line. */
  end(): void {
    if (this.pending.length > 0) this.onBlock(this.pending);
    this.pending = '';
  }
}

/**
 * Splits a top-level JSON array (`[{…}, {…}]`, FastChat's battle files) into its elements without
 * parsing the whole document, so files larger than a JS string can be read. Elements must be
 * objects; anything else is reported as element `ordinal` with an `Error`.
 */
export class ArraySplitter {
  private pending: Uint8Array | undefined;
  private pendingStart = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private element = 0;
  private started = false;
  private finished = false;

  constructor(private readonly onRecord: RecordHandler) {}

  /** Feeds the next chunk of the stream. */
  push(chunk: Uint8Array): void {
    let bytes = chunk;
    let offset = 0;
    if (this.pending) {
      offset = this.pending.length;
      bytes = concat(this.pending, chunk);
      this.pending = undefined;
    }
    let elementStart = this.depth > 1 ? this.pendingStart : -1;
    for (let position = offset; position < bytes.length; position++) {
      const byte = bytes[position]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
        continue;
      }
      if (byte === QUOTE) {
        if (this.depth < 2) throw new Error(`element ${this.element + 1} is not a JSON object`);
        this.inString = true;
      } else if (byte === 0x7b || byte === 0x5b) {
        if (!this.started) {
          if (byte !== 0x5b) throw new Error('expected a JSON array of vote objects');
          this.started = true;
          this.depth = 1;
          continue;
        }
        if (this.depth === 1) {
          if (byte !== 0x7b) throw new Error(`element ${this.element + 1} is not a JSON object`);
          elementStart = position;
        }
        this.depth++;
      } else if (byte === 0x7d || byte === 0x5d) {
        this.depth--;
        if (this.depth === 1) {
          this.element++;
          this.onRecord(bytes, elementStart, position + 1, this.element);
          elementStart = -1;
        } else if (this.depth === 0) {
          this.finished = true;
        } else if (this.depth < 0) {
          throw new Error('unbalanced brackets in the JSON array');
        }
      } else if (this.depth <= 1 && byte !== 0x2c && byte > 0x20) {
        if (!this.started || this.finished) throw new Error('expected a JSON array of vote objects');
        throw new Error(`element ${this.element + 1} is not a JSON object`);
      }
    }
    if (this.depth > 1) {
      this.pending = bytes.slice(elementStart);
      this.pendingStart = 0;
    }
  }

  /** Ends the stream; throws when the array is not closed. */
  end(): void {
    if (!this.finished) throw new Error('the JSON array is not closed');
  }
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  const out = new Uint8Array(first.length + second.length);
  out.set(first, 0);
  out.set(second, first.length);
  return out;
}
