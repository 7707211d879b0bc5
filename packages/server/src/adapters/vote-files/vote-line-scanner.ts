import type { VoteCollector } from './vote-collector';
import { parseJson } from './record-file';
import { ByteNameTable, hashBytes, sameBytes } from './byte-name-table';
import { readUsualLine, VoteFields } from './usual-vote-line';
import { QUOTE, BACKSLASH, COMMA, COLON, OPEN, CLOSE, NEWLINE, ZERO, NINE } from './json-bytes';

/*
 * A byte scanner for the lines of an Agora/fixture vote file. The usual line (usual-vote-line.ts:
 * fields in Agora's order, no spaces) is read word by word against its fixed pieces; any other flat
 * JSON object whose strings have no escapes and whose numbers are plain non-negative integers is
 * read here, key by key. Both read model_a, model_b, winner and the eight style counts straight
 * from the bytes, with no string or object per line (the model names are decoded once per
 * distinct name). Any other line (an escape, a nested value, a flag field, a bad value, a repeated
 * key) goes to the JSON.parse path of VoteCollector, which gives the same votes and the same
 * errors as before, at its speed.
 */

/** Field slots; style slots 3..10 follow VoteTable.style order (len_a, len_b, headers_a, …). */
const FIELDS: readonly string[] = [
  'model_a',
  'model_b',
  'winner',
  'len_a',
  'len_b',
  'headers_a',
  'headers_b',
  'lists_a',
  'lists_b',
  'bold_a',
  'bold_b',
];
const FIELD_BYTES = FIELDS.map((name) => Buffer.from(name, 'latin1'));
const MODEL_A = 0;
const MODEL_B = 1;
const WINNER = 2;
const STYLE = 3;
const ALL_STYLE = 0xff << STYLE;
const LEN_KEYS = (1 << STYLE) | (1 << (STYLE + 1));

/** Winner spellings and their outcome codes (vote-formats.ts WINNERS). */
const WINNER_BYTES: readonly [Buffer, number][] = [
  [Buffer.from('model_a'), 0],
  [Buffer.from('model_b'), 1],
  [Buffer.from('tie'), 2],
  [Buffer.from('both_bad'), 3],
  [Buffer.from('tie_bothbad'), 3],
  [Buffer.from('tie (bothbad)'), 3],
];

/** Keys that decide whether a row is flagged: such rows take the JSON.parse path. */
const FLAG_KEYS = new Set(['flags', 'identity_leak', 'abuse']);

export class VoteLineScanner {
  /** Lines seen, blank ones included (for error messages). */
  lineCount = 0;
  /** The line being read: names (and, on the general path, the winner) as byte ranges, counts. */
  private readonly fields = new VoteFields();
  /** A DataView of the block being scanned (the usual-line reader reads words through it). */
  private view: DataView = new DataView(new ArrayBuffer(0));
  private readonly names = new ByteNameTable();
  private readonly unknownKeys = new Map<string, boolean>();

  constructor(
    private readonly path: string,
    private readonly collector: VoteCollector,
    private readonly excludedFlags: ReadonlySet<string>,
  ) {}

  /** Scans whole lines in bytes[from, to); a last piece without a newline is a line too. */
  scan(bytes: Buffer, from: number, to: number): void {
    let view = this.view;
    if (view.buffer !== bytes.buffer || view.byteOffset !== bytes.byteOffset || view.byteLength !== bytes.length) {
      view = this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    }
    const fields = this.fields;
    let lineStart = from;
    while (lineStart < to) {
      this.lineCount += 1;
      // the scanner finds the line's end itself; only a line it gives up on is searched for it
      let next = readUsualLine(view, bytes, lineStart, to, fields);
      if (next >= 0) {
        this.addUsualVote(bytes);
        lineStart = next;
        continue;
      }
      next = this.fastLine(bytes, lineStart, to);
      if (next >= 0) {
        lineStart = next;
        continue;
      }
      let lineEnd = bytes.indexOf(NEWLINE, lineStart);
      if (lineEnd < 0 || lineEnd >= to) lineEnd = to;
      this.slowLine(bytes, lineStart, lineEnd);
      lineStart = lineEnd + 1;
    }
  }

  /** The JSON.parse path, exactly as JsonLineReader and VoteCollector read a line. */
  private slowLine(bytes: Buffer, from: number, to: number): void {
    const text = bytes.toString('utf8', from, to);
    if (text.charCodeAt(0) !== OPEN && text.trim().length === 0) return;
    this.collector.add(parseJson(this.path, text, `line ${this.lineCount}`), this.lineCount);
  }

  /** Adds the vote readUsualLine read (names hashed, winner decoded). */
  private addUsualVote(bytes: Buffer): void {
    const { fields, names, view } = this;
    const a = names.indexOf(view, bytes, fields.start[MODEL_A]!, fields.end[MODEL_A]!, fields.hashes[MODEL_A]!, this.addName);
    const b = names.indexOf(view, bytes, fields.start[MODEL_B]!, fields.end[MODEL_B]!, fields.hashes[MODEL_B]!, this.addName);
    this.collector.records += 1;
    this.collector.builder.addIndexed(a, b, fields.outcome, fields.withStyle ? fields.style : undefined);
  }

  /**
   * Reads one usual line (from `from` up to its newline or `to`) into the table and returns where
   * the next line starts; -1 (nothing added) when the line is not usual.
   */
  private fastLine(bytes: Buffer, from: number, to: number): number {
    let at = skipSpace(bytes, from, to);
    if (at >= to || bytes[at] !== OPEN) return -1;
    at = skipSpace(bytes, at + 1, to);
    let seen = 0;
    // keys usually come in the order of FIELDS: the next key is tried first
    let guess = 0;
    if (bytes[at] === CLOSE) return -1;
    for (;;) {
      // every read stays below `to`: the buffer past it holds bytes of an earlier block
      if (at >= to || bytes[at] !== QUOTE) return -1;
      const keyEnd = stringEnd(bytes, at + 1, to);
      if (keyEnd < 0) return -1;
      const field = this.fieldOf(bytes, at + 1, keyEnd, guess);
      guess = field + 1;
      if (field === -2) return -1;
      at = skipSpace(bytes, keyEnd + 1, to);
      if (at >= to || bytes[at] !== COLON) return -1;
      at = skipSpace(bytes, at + 1, to);
      if (field >= 0) {
        if ((seen & (1 << field)) !== 0) return -1;
        seen |= 1 << field;
        at = field < STYLE ? this.readString(bytes, at, to, field) : this.readCount(bytes, at, to, field - STYLE);
      } else {
        at = skipValue(bytes, at, to);
      }
      if (at < 0) return -1;
      at = skipSpace(bytes, at, to);
      if (at >= to) return -1;
      if (bytes[at] === COMMA) {
        at = skipSpace(bytes, at + 1, to);
        continue;
      }
      if (bytes[at] !== CLOSE) return -1;
      at = skipSpace(bytes, at + 1, to);
      if (at < to && bytes[at] !== NEWLINE) return -1;
      break;
    }
    return this.addVote(bytes, seen) ? at + 1 : -1;
  }

  private addVote(bytes: Buffer, seen: number): boolean {
    if ((seen & 7) !== 7) return false;
    const withStyle = (seen & LEN_KEYS) !== 0;
    if (withStyle && (seen & ALL_STYLE) !== ALL_STYLE) return false;
    const { start, end, style } = this.fields;
    const outcome = winnerCode(bytes, start[WINNER]!, end[WINNER]!);
    if (outcome < 0 || end[MODEL_A] === start[MODEL_A] || end[MODEL_B] === start[MODEL_B]) return false;
    const a = this.modelIndex(bytes, MODEL_A);
    const b = this.modelIndex(bytes, MODEL_B);
    this.collector.records += 1;
    this.collector.builder.addIndexed(a, b, outcome, withStyle ? style : undefined);
    return true;
  }

  /** A model's table index (its name decoded only the first time it is seen). */
  private modelIndex(bytes: Buffer, slot: number): number {
    const from = this.fields.start[slot]!;
    const to = this.fields.end[slot]!;
    return this.names.indexOf(this.view, bytes, from, to, hashBytes(this.view, bytes, from, to), this.addName);
  }

  private readonly addName = (name: string): number => this.collector.builder.modelIndex(name);

  /** Slot of a known key, -1 for a key to skip, -2 for a key that needs the JSON.parse path. */
  private fieldOf(bytes: Buffer, from: number, to: number, guess: number): number {
    if (guess >= 0 && guess < FIELD_BYTES.length && sameBytes(FIELD_BYTES[guess]!, bytes, from, to)) return guess;
    const length = to - from;
    for (let field = 0; field < FIELD_BYTES.length; field++) {
      const name = FIELD_BYTES[field]!;
      if (name.length === length && bytes[to - 1] === name[length - 1] && sameBytes(name, bytes, from, to)) return field;
    }
    const key = bytes.toString('latin1', from, to);
    let slow = this.unknownKeys.get(key);
    if (slow === undefined) {
      const name = bytes.toString('utf8', from, to);
      slow = FLAG_KEYS.has(name) || this.excludedFlags.has(name) || name.startsWith('conv');
      this.unknownKeys.set(key, slow);
    }
    return slow ? -2 : -1;
  }

  private readString(bytes: Buffer, at: number, to: number, slot: number): number {
    if (bytes[at] !== QUOTE) return -1;
    const close = stringEnd(bytes, at + 1, to);
    if (close < 0) return -1;
    this.fields.start[slot] = at + 1;
    this.fields.end[slot] = close;
    return close + 1;
  }

  private readCount(bytes: Buffer, at: number, to: number, slot: number): number {
    let value = 0;
    let digits = 0;
    for (; at < to; at++, digits++) {
      const byte = bytes[at]!;
      if (byte < ZERO || byte > NINE) break;
      value = value * 10 + (byte - ZERO);
    }
    // a leading zero, a fraction or an exponent, or out of range: the JSON.parse path decides
    if (digits === 0 || digits > 10 || (digits > 1 && bytes[at - digits] === ZERO) || value > 0xffffffff) return -1;
    const next = bytes[at];
    if (next === 0x2e || next === 0x65 || next === 0x45) return -1;
    this.fields.style[slot] = value;
    return at;
  }
}

function skipSpace(bytes: Buffer, at: number, to: number): number {
  while (at < to) {
    const byte = bytes[at]!;
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) break;
    at++;
  }
  return at;
}

/** Index of the closing quote of a string starting at `at`; -1 if it has an escape or a control byte. */
function stringEnd(bytes: Buffer, at: number, to: number): number {
  for (; at < to; at++) {
    const byte = bytes[at]!;
    if (byte === QUOTE) return at;
    if (byte === BACKSLASH || byte < 0x20) return -1;
  }
  return -1;
}

/** Skips a simple value of an ignored key (string, plain integer, true, false, null); -1 otherwise. */
function skipValue(bytes: Buffer, at: number, to: number): number {
  if (at >= to) return -1;
  const byte = bytes[at];
  if (byte === QUOTE) {
    const close = stringEnd(bytes, at + 1, to);
    return close < 0 ? -1 : close + 1;
  }
  if (at < to && byte !== undefined && byte >= ZERO && byte <= NINE) {
    const first = at;
    while (at < to && bytes[at]! >= ZERO && bytes[at]! <= NINE) at++;
    if (at - first > 1 && bytes[first] === ZERO) return -1;
    const next = bytes[at];
    return next === 0x2e || next === 0x65 || next === 0x45 ? -1 : at;
  }
  for (const word of LITERALS) {
    if (at + word.length <= to && sameBytes(word, bytes, at, at + word.length)) return at + word.length;
  }
  return -1;
}

const LITERALS = [Buffer.from('true'), Buffer.from('false'), Buffer.from('null')];

function winnerCode(bytes: Buffer, from: number, to: number): number {
  for (const [spelling, code] of WINNER_BYTES) if (sameBytes(spelling, bytes, from, to)) return code;
  return -1;
}
