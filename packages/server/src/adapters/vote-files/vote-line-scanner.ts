import type { VoteCollector } from './vote-collector';
import { parseJson } from './record-file';
import { ByteNameTable, sameBytes } from './byte-name-table';

/*
 * A byte scanner for the usual line of an Agora/fixture vote file: a flat JSON object whose
 * strings have no escapes and whose numbers are plain non-negative integers. It reads model_a,
 * model_b, winner and the eight style counts straight from the bytes, with no string or object
 * per line (the model names are decoded once per distinct name). Any other line (an escape, a
 * nested value, a flag field, a bad value, a repeated key) goes to the JSON.parse path of
 * VoteCollector, which gives the same votes and the same errors as before, at its speed.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const NEWLINE = 0x0a;
const ZERO = 0x30;
const NINE = 0x39;

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

/**
 * The usual line as Agora and the fixtures write it: the fields of FIELDS in that order, no
 * spaces. Its fixed pieces (each string's closing quote, the next key, the opening of the next
 * value) are matched byte for byte, so such a line is read in one pass without looking keys up.
 */
const USUAL_PIECES = [
  '{"model_a":"',
  '","model_b":"',
  '","winner":"',
  '","len_a":',
  ',"len_b":',
  ',"headers_a":',
  ',"headers_b":',
  ',"lists_a":',
  ',"lists_b":',
  ',"bold_a":',
  ',"bold_b":',
].map((piece) => Buffer.from(piece, 'latin1'));
/** A usual line without style counts ends after the winner. */
const WINNER_LAST = Buffer.from('"}', 'latin1');
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

const WINNER_HASHES = Int32Array.from(WINNER_BYTES, ([spelling]) => {
  let hash = FNV_OFFSET;
  for (const byte of spelling) hash = Math.imul(hash ^ byte, FNV_PRIME);
  return hash;
});

/** Keys that decide whether a row is flagged: such rows take the JSON.parse path. */
const FLAG_KEYS = new Set(['flags', 'identity_leak', 'abuse']);

export class VoteLineScanner {
  /** Lines seen, blank ones included (for error messages). */
  lineCount = 0;
  private readonly start = new Int32Array(3);
  private readonly end = new Int32Array(3);
  private readonly style = new Uint32Array(8);
  /** FNV-1a hashes of model_a, model_b and winner of the line being read (usualLine). */
  private readonly hashes = new Int32Array(3);
  private readonly names = new ByteNameTable();
  private readonly unknownKeys = new Map<string, boolean>();

  constructor(
    private readonly path: string,
    private readonly collector: VoteCollector,
    private readonly excludedFlags: ReadonlySet<string>,
  ) {}

  /** Scans whole lines in bytes[from, to); a last piece without a newline is a line too. */
  scan(bytes: Buffer, from: number, to: number): void {
    let lineStart = from;
    while (lineStart < to) {
      this.lineCount += 1;
      // the scanner finds the line's end itself; only a line it gives up on is searched for it
      let next = this.usualLine(bytes, lineStart, to);
      if (next < 0) next = this.fastLine(bytes, lineStart, to);
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

  /**
   * Reads a line written exactly in the usual form (USUAL_PIECES) and returns where the next line
   * starts; -1 (nothing added) for any other line, which fastLine then reads. The model names are
   * hashed as their closing quote is sought.
   */
  private usualLine(bytes: Buffer, from: number, to: number): number {
    let at = matchPiece(bytes, from, to, USUAL_PIECES[0]!);
    const hashes = this.hashes;
    for (let slot = 0; slot < STYLE; slot++) {
      if (at < 0) return -1;
      this.start[slot] = at;
      let hash = FNV_OFFSET;
      for (; at < to; at++) {
        const byte = bytes[at]!;
        if (byte === QUOTE) break;
        if (byte === BACKSLASH || byte < 0x20) return -1;
        hash = Math.imul(hash ^ byte, FNV_PRIME);
      }
      if (at >= to) return -1;
      this.end[slot] = at;
      hashes[slot] = hash;
      if (slot === WINNER) break;
      at = matchPiece(bytes, at, to, USUAL_PIECES[slot + 1]!);
    }
    let seen = 7;
    let next = matchPiece(bytes, at, to, WINNER_LAST);
    if (next < 0) {
      next = at;
      for (let slot = 0; slot < 8; slot++) {
        next = matchPiece(bytes, next, to, USUAL_PIECES[STYLE + slot]!);
        if (next >= 0) next = this.readCount(bytes, next, to, slot);
        if (next < 0) return -1;
      }
      if (next >= to || bytes[next] !== CLOSE) return -1;
      next += 1;
      seen |= ALL_STYLE;
    }
    if (next < to && bytes[next] !== NEWLINE) return -1;
    return this.addVote(bytes, seen, true) ? next + 1 : -1;
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

  /** `hashed`: the hashes of the names and the winner are in `hashes` already (usualLine). */
  private addVote(bytes: Buffer, seen: number, hashed = false): boolean {
    if ((seen & 7) !== 7) return false;
    const withStyle = (seen & LEN_KEYS) !== 0;
    if (withStyle && (seen & ALL_STYLE) !== ALL_STYLE) return false;
    const outcome = hashed
      ? hashedWinnerCode(bytes, this.start[WINNER]!, this.end[WINNER]!, this.hashes[WINNER]!)
      : winnerCode(bytes, this.start[WINNER]!, this.end[WINNER]!);
    if (outcome < 0 || this.end[MODEL_A] === this.start[MODEL_A] || this.end[MODEL_B] === this.start[MODEL_B]) return false;
    const a = this.modelIndex(bytes, MODEL_A, hashed);
    const b = this.modelIndex(bytes, MODEL_B, hashed);
    this.collector.records += 1;
    this.collector.builder.addIndexed(a, b, outcome, withStyle ? this.style : undefined);
    return true;
  }

  /** A model's table index (its name decoded only the first time it is seen). */
  private modelIndex(bytes: Buffer, slot: number, hashed: boolean): number {
    const from = this.start[slot]!;
    const to = this.end[slot]!;
    let hash = this.hashes[slot]!;
    if (!hashed) {
      hash = FNV_OFFSET;
      for (let at = from; at < to; at++) hash = Math.imul(hash ^ bytes[at]!, FNV_PRIME);
    }
    return this.names.indexOf(bytes, from, to, hash, this.addName);
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
    this.start[slot] = at + 1;
    this.end[slot] = close;
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
    this.style[slot] = value;
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

/** Where bytes[at…] goes on after `piece`, or -1 if it does not start with it (before `to`). */
function matchPiece(bytes: Buffer, at: number, to: number, piece: Uint8Array): number {
  if (at + piece.length > to) return -1;
  for (let index = 0; index < piece.length; index++) if (bytes[at + index] !== piece[index]) return -1;
  return at + piece.length;
}

function winnerCode(bytes: Buffer, from: number, to: number): number {
  for (const [spelling, code] of WINNER_BYTES) if (sameBytes(spelling, bytes, from, to)) return code;
  return -1;
}

/** The winner's code when its hash is known (usualLine): one spelling to check, not six. */
function hashedWinnerCode(bytes: Buffer, from: number, to: number, hash: number): number {
  for (let index = 0; index < WINNER_HASHES.length; index++) {
    if (WINNER_HASHES[index] === hash) {
      const [spelling, code] = WINNER_BYTES[index]!;
      return sameBytes(spelling, bytes, from, to) ? code : -1;
    }
  }
  return -1;
}
