import { finishHash, HASH_PRIME, HASH_SEED } from './byte-name-table';
import { QUOTE, BACKSLASH, CLOSE, NEWLINE, ZERO } from './json-bytes';

/*
 * The usual line of an Agora/fixture vote file, as Agora and the fixtures write it: model_a,
 * model_b, winner and, optionally, the eight style counts, in that order, no spaces, names without
 * escapes, counts as plain non-negative integers. It is read four bytes at a time through a
 * DataView (V8 compiles its getInt32 to one unaligned load): its fixed pieces are compared as
 * words, and the names are hashed word by word while their closing quote is sought. Any other
 * line (another order, spaces, an escape, a flag, another winner spelling, a bad count) makes
 * readUsualLine return -1 having added nothing, and the general reader of vote-line-scanner.ts
 * reads it as before.
 */

const ONES = 0x01010101;
const HIGHS = 0x80808080 | 0;
const QUOTES = 0x22222222;
const BACKSLASHES = 0x5c5c5c5c;
const CONTROLS = 0x20202020;
/** The bytes of a word before its byte 0..3 (little-endian). */
const WORD_MASKS = [0, 0xff, 0xffff, 0xffffff];

/**
 * A fixed piece of the usual line (at least 8 bytes), as 8-byte words at `offsets` (the last may
 * overlap) read as doubles: printable ASCII is never a NaN or a zero, so equal doubles mean equal
 * bytes.
 */
interface Piece {
  length: number;
  offsets: Int32Array;
  words: Float64Array;
}

function piece(text: string): Piece {
  const bytes = Buffer.from(text, 'latin1');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const offsets: number[] = [];
  for (let at = 0; at + 8 <= bytes.length; at += 8) offsets.push(at);
  if (bytes.length % 8 !== 0) offsets.push(bytes.length - 8);
  return { length: bytes.length, offsets: Int32Array.from(offsets), words: Float64Array.from(offsets, (at) => view.getFloat64(at, true)) };
}

const wordOf = (text: string): number => Buffer.from(text, 'latin1').readInt32LE(0);

const FIRST = piece('{"model_a":"');
const BEFORE_MODEL_B = piece('","model_b":"');
const BEFORE_WINNER = piece('","winner":"');
/** Before each style count, in VoteTable.style order (the winner's closing quote already read). */
const BEFORE_COUNT = ['len_a', 'len_b', 'headers_a', 'headers_b', 'lists_a', 'lists_b', 'bold_a', 'bold_b'].map((key) =>
  piece(`,"${key}":`),
);
const MODE = wordOf('mode');
const L_A = wordOf('l_a"');
const L_B = wordOf('l_b"');
const TIE = wordOf('tie"');
const BOTH = wordOf('both');
const BAD = wordOf('_bad');
const TIE_ = wordOf('tie_');
const BAD_QUOTE = wordOf('bad"');

/** What a line gave: the names' byte ranges and hashes, the outcome code and the style counts. */
export class VoteFields {
  /** Slots 0 and 1: model_a and model_b; slot 2: the winner, on the general path only. */
  readonly start = new Int32Array(3);
  readonly end = new Int32Array(3);
  readonly hashes = new Int32Array(2);
  readonly style = new Uint32Array(8);
  outcome = 0;
  withStyle = false;
}

/** Reads a usual line at bytes[from…] (not past `to`) into `fields`; where the next line starts, or -1. */
export function readUsualLine(view: DataView, bytes: Uint8Array, from: number, to: number, fields: VoteFields): number {
  let at = matchPiece(view, from, to, FIRST);
  if (at >= 0) at = readName(view, bytes, at, to, fields, 0);
  if (at >= 0) at = matchPiece(view, at, to, BEFORE_MODEL_B);
  if (at >= 0) at = readName(view, bytes, at, to, fields, 1);
  if (at >= 0) at = matchPiece(view, at, to, BEFORE_WINNER);
  if (at >= 0) at = readWinner(view, bytes, at, to, fields);
  if (at < 0 || at >= to) return -1;
  fields.withStyle = bytes[at] !== CLOSE;
  if (fields.withStyle) {
    for (let slot = 0; slot < 8 && at >= 0; slot++) {
      at = matchPiece(view, at, to, BEFORE_COUNT[slot]!);
      if (at >= 0) at = readCount(bytes, at, to, fields, slot);
    }
    if (at < 0 || at >= to || bytes[at] !== CLOSE) return -1;
  }
  at += 1;
  if (at < to && bytes[at] !== NEWLINE) return -1;
  return at + 1;
}

/** Where bytes[at…] goes on after `piece`, or -1 if it does not start with it (before `to`). */
function matchPiece(view: DataView, at: number, to: number, piece: Piece): number {
  if (at + piece.length > to) return -1;
  const { offsets, words } = piece;
  for (let index = 0; index < offsets.length; index++) if (view.getFloat64(at + offsets[index]!, true) !== words[index]) return -1;
  return at + piece.length;
}

/**
 * Reads a name up to its closing quote, four bytes at a time; -1 at a backslash, a control byte or
 * an empty name. A word holds a quote, a backslash or a byte below 0x20 exactly when the bit
 * tricks below give a high bit (the false positives sit only above a true one), and its first such
 * byte is then sought byte by byte.
 */
function readName(view: DataView, bytes: Uint8Array, at: number, to: number, fields: VoteFields, slot: number): number {
  const start = at;
  let hash = HASH_SEED;
  let word: number;
  for (;;) {
    if (at + 4 > to) return -1;
    word = view.getInt32(at, true);
    const quotes = word ^ QUOTES;
    const backslashes = word ^ BACKSLASHES;
    if ((((quotes - ONES) & ~quotes) | ((backslashes - ONES) & ~backslashes) | ((word - CONTROLS) & ~word)) & HIGHS) break;
    hash = Math.imul(hash ^ word, HASH_PRIME);
    at += 4;
  }
  let end = at;
  for (let byte = bytes[end]!; byte !== QUOTE; byte = bytes[++end]!) if (byte === BACKSLASH || byte < 0x20) return -1;
  if (end === start) return -1;
  if (end > at) hash = Math.imul(hash ^ (word & WORD_MASKS[end - at]!), HASH_PRIME);
  fields.start[slot] = start;
  fields.end[slot] = end;
  fields.hashes[slot] = finishHash(hash, end - start);
  return end;
}

/** Reads the winner and its closing quote (model_a, model_b, tie, both_bad, tie_bothbad; other spellings: -1). */
function readWinner(view: DataView, bytes: Uint8Array, at: number, to: number, fields: VoteFields): number {
  if (at + 4 > to) return -1;
  const first = view.getInt32(at, true);
  if (first === TIE) {
    fields.outcome = 2;
    return at + 4;
  }
  if (at + 8 > to) return -1;
  const second = view.getInt32(at + 4, true);
  if (first === MODE && (second === L_A || second === L_B)) {
    fields.outcome = second === L_A ? 0 : 1;
    return at + 8;
  }
  if (first === BOTH && second === BAD && at + 9 <= to && bytes[at + 8] === QUOTE) {
    fields.outcome = 3;
    return at + 9;
  }
  if (first === TIE_ && second === BOTH && at + 12 <= to && view.getInt32(at + 8, true) === BAD_QUOTE) {
    fields.outcome = 3;
    return at + 12;
  }
  return -1;
}

/**
 * A plain non-negative integer below 2^32. A leading zero followed by a digit, a fraction or an
 * exponent stops the line at the next piece (which must start with a comma or close the object).
 */
function readCount(bytes: Uint8Array, at: number, to: number, fields: VoteFields, slot: number): number {
  if (at >= to) return -1;
  let value = bytes[at]! - ZERO;
  if (value >>> 0 > 9) return -1;
  at += 1;
  if (value !== 0) {
    for (; at < to; at++) {
      const digit = bytes[at]! - ZERO;
      if (digit >>> 0 > 9) break;
      value = value * 10 + digit;
    }
    if (value > 0xffffffff) return -1;
  }
  fields.style[slot] = value;
  return at;
}
