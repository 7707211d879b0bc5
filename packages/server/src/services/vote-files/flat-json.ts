/** A JSON value of a flat record: what the fast path returns (nested values go to JSON.parse). */
export type JsonRecord = Record<string, unknown>;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/** Longest string worth interning (model names, keys, winner values repeat on every line). */
const MAX_INTERNED_LENGTH = 96;
const MAX_INTERNED_STRINGS = 65536;

/**
 * Parses one JSON object per call from UTF-8 bytes, fast. Vote files are millions of small flat
 * objects whose keys and string values (model names, outcomes) repeat on every line, so strings
 * are interned by their bytes instead of being decoded each time, and plain integers are read
 * directly. Anything outside that shape (nested objects or arrays, escapes, unusual numbers, bad
 * syntax) is handed to `JSON.parse`, which stays the reference for what the file means.
 */
export class FlatJsonParser {
  private readonly interned = new Map<number, string[]>();
  private internedCount = 0;
  private readonly decoder = new TextDecoder('utf-8');

  /**
   * Parses bytes [start, end) as one JSON value and returns it when it is an object.
   *
   * @throws SyntaxError from `JSON.parse` when the text is not valid JSON.
   */
  parse(bytes: Uint8Array, start: number, end: number): unknown {
    const fast = this.parseFlat(bytes, start, end);
    if (fast !== undefined) return fast;
    return JSON.parse(this.decoder.decode(bytes.subarray(start, end)));
  }

  private parseFlat(bytes: Uint8Array, start: number, end: number): JsonRecord | undefined {
    let position = start;
    while (position < end && isSpace(bytes[position]!)) position++;
    if (bytes[position] !== OPEN_BRACE) return undefined;
    position++;
    const record: JsonRecord = {};
    while (position < end && isSpace(bytes[position]!)) position++;
    if (bytes[position] === CLOSE_BRACE) return this.finish(bytes, position + 1, end) ? record : undefined;
    for (;;) {
      if (bytes[position] !== QUOTE) return undefined;
      const keyEnd = this.stringEnd(bytes, position + 1, end);
      if (keyEnd < 0) return undefined;
      const key = this.text(bytes, position + 1, keyEnd);
      position = keyEnd + 1;
      while (position < end && isSpace(bytes[position]!)) position++;
      if (bytes[position] !== COLON) return undefined;
      position++;
      while (position < end && isSpace(bytes[position]!)) position++;
      const byte = bytes[position];
      if (byte === QUOTE) {
        const valueEnd = this.stringEnd(bytes, position + 1, end);
        if (valueEnd < 0) return undefined;
        record[key] = this.text(bytes, position + 1, valueEnd);
        position = valueEnd + 1;
      } else if (byte === MINUS || (byte !== undefined && byte >= ZERO && byte <= NINE)) {
        const numberEnd = this.numberEnd(bytes, position, end);
        const value = this.number(bytes, position, numberEnd);
        if (value === undefined) return undefined;
        record[key] = value;
        position = numberEnd;
      } else if (this.literal(bytes, position, end, 'true')) {
        record[key] = true;
        position += 4;
      } else if (this.literal(bytes, position, end, 'false')) {
        record[key] = false;
        position += 5;
      } else if (this.literal(bytes, position, end, 'null')) {
        record[key] = null;
        position += 4;
      } else {
        return undefined;
      }
      while (position < end && isSpace(bytes[position]!)) position++;
      if (bytes[position] === COMMA) {
        position++;
        while (position < end && isSpace(bytes[position]!)) position++;
        continue;
      }
      if (bytes[position] === CLOSE_BRACE) return this.finish(bytes, position + 1, end) ? record : undefined;
      return undefined;
    }
  }

  private finish(bytes: Uint8Array, position: number, end: number): boolean {
    while (position < end && isSpace(bytes[position]!)) position++;
    return position === end;
  }

  /** Index of the closing quote of a string without escapes or control characters, or −1. */
  private stringEnd(bytes: Uint8Array, position: number, end: number): number {
    for (; position < end; position++) {
      const byte = bytes[position]!;
      if (byte === QUOTE) return position;
      if (byte === BACKSLASH || byte < 0x20) return -1;
    }
    return -1;
  }

  private text(bytes: Uint8Array, start: number, end: number): string {
    const length = end - start;
    if (length > MAX_INTERNED_LENGTH) return this.decoder.decode(bytes.subarray(start, end));
    let hash = 0x811c9dc5;
    let ascii = true;
    for (let position = start; position < end; position++) {
      const byte = bytes[position]!;
      if (byte >= 0x80) ascii = false;
      hash = Math.imul(hash ^ byte, 0x01000193);
    }
    if (!ascii) return this.decoder.decode(bytes.subarray(start, end));
    const bucket = this.interned.get(hash);
    if (bucket) {
      for (const candidate of bucket) if (sameAscii(candidate, bytes, start, length)) return candidate;
    }
    let value = '';
    for (let position = start; position < end; position++) value += String.fromCharCode(bytes[position]!);
    if (this.internedCount < MAX_INTERNED_STRINGS) {
      this.internedCount++;
      if (bucket) bucket.push(value);
      else this.interned.set(hash, [value]);
    }
    return value;
  }

  private numberEnd(bytes: Uint8Array, position: number, end: number): number {
    for (; position < end; position++) {
      const byte = bytes[position]!;
      const numeric =
        (byte >= ZERO && byte <= NINE) || byte === MINUS || byte === 0x2b || byte === 0x2e || byte === 0x65 || byte === 0x45;
      if (!numeric) break;
    }
    return position;
  }

  /** A JSON number; undefined when the text is not one (JSON.parse then reports the error). */
  private number(bytes: Uint8Array, start: number, end: number): number | undefined {
    let position = start;
    const negative = bytes[position] === MINUS;
    if (negative) position++;
    const digitsStart = position;
    let value = 0;
    while (position < end && bytes[position]! >= ZERO && bytes[position]! <= NINE) {
      value = value * 10 + (bytes[position]! - ZERO);
      position++;
    }
    const digits = position - digitsStart;
    if (digits === 0 || (digits > 1 && bytes[digitsStart] === ZERO)) return undefined;
    if (position === end && digits <= 15) return negative ? -value : value;
    let text = '';
    for (let index = start; index < end; index++) text += String.fromCharCode(bytes[index]!);
    if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return undefined;
    return Number(text);
  }

  private literal(bytes: Uint8Array, position: number, end: number, word: string): boolean {
    if (position + word.length > end) return false;
    for (let index = 0; index < word.length; index++) {
      if (bytes[position + index] !== word.charCodeAt(index)) return false;
    }
    return true;
  }
}

function sameAscii(candidate: string, bytes: Uint8Array, start: number, length: number): boolean {
  if (candidate.length !== length) return false;
  for (let index = 0; index < length; index++) {
    if (candidate.charCodeAt(index) !== bytes[start + index]) return false;
  }
  return true;
}
