/*
 * Numbers for strings without keeping the strings: the live leaderboard's columns name millions of
 * duels, visitors and client addresses, and a Map of their ids would cost more than the columns
 * themselves (about a hundred bytes an entry against eight here). Each string is reduced to a 64-bit
 * hash, and a hash table in typed arrays gives it a dense number (0, 1, 2… in order of first sight).
 *
 * Two different strings share a number only when their hashes collide. Both lanes multiply by
 * constants of the same residue mod 4 from seeds that share their two low bits, so the two lanes'
 * low bits always agree: 62 bits of the 64 vary. Among 2.5 million strings, a chance of about 7 in
 * 10 million (n² / 2⁶³). A collision merges two duels (the later
 * one's vote is read as an update of the earlier) or two visitors (their votes are judged together
 * by the integrity rules); the periodic full reload does not change that, so it is said in
 * docs/ranking.md rather than hidden.
 */

/**
 * A 64-bit hash of a string's UTF-16 code units, as two unsigned 32-bit halves. Two multiplicative
 * lanes mixed into each other at the end, after bryc's cyrb53 (public domain), keeping all 64 bits.
 */
export function hash64(text: string): [hi: number, lo: number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h2 >>> 0, h1 >>> 0];
}

const EMPTY = -1;
/** The most keys a table holds: its key arrays reserve address space, not memory, for this many. */
const MAX_KEYS = 2 ** 28;

/**
 * Dense numbers for 64-bit keys: open addressing with linear probing, at most three quarters full.
 * Holds 8 bytes of key per entry (in resizable buffers: no slack is ever resident) plus 5 to 11
 * bytes of table.
 */
export class DenseIds64 {
  private readonly keys = new ArrayBuffer(0, { maxByteLength: MAX_KEYS * 8 });
  /** hi, lo of key n at 2n, 2n + 1 (tracks the buffer's length). */
  private readonly halves = new Uint32Array(this.keys);
  private slots = new Int32Array(1024).fill(EMPTY);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Every key in the order of its number, hi and lo at 2n and 2n + 1 (sharing the memory; valid until the next new key). */
  keyHalves(): Uint32Array {
    return this.halves.subarray(0, 2 * this.count);
  }

  /** Numbers the keys of another table's {@link keyHalves} as it did (this table must be empty). */
  restore(halves: Uint32Array): void {
    if (this.count > 0) throw new Error('a dense id table restored over keys');
    const count = halves.length >> 1;
    if (count > MAX_KEYS) throw new Error(`more than ${MAX_KEYS} distinct keys`);
    // Sized once for every key (a restart's load: key by key, the table doubled a dozen times at 2.5M).
    this.keys.resize(Math.min(this.keys.maxByteLength, Math.max(65_536, Math.ceil((count * 8) / 65_536) * 65_536)));
    this.halves.set(halves.subarray(0, 2 * count));
    let size = this.slots.length;
    while (count * 4 > size * 3) size *= 2;
    this.slots = new Int32Array(size).fill(EMPTY);
    this.count = count;
    const mask = size - 1;
    for (let id = 0; id < count; id++) {
      const hi = this.halves[2 * id]!;
      const lo = this.halves[2 * id + 1]!;
      let slot = (lo ^ Math.imul(hi, 0x9e3779b1)) & mask;
      for (let other = this.slots[slot]!; other !== EMPTY; slot = (slot + 1) & mask, other = this.slots[slot]!)
        // Two equal keys would shift every number after them: the halves were not a table's.
        if (this.halves[2 * other + 1] === lo && this.halves[2 * other] === hi) {
          this.clear();
          throw new Error('a key appears twice in a dense id table');
        }
      this.slots[slot] = id;
    }
  }

  /** The number of a key, or -1 when it was never seen. */
  find(hi: number, lo: number): number {
    const mask = this.slots.length - 1;
    for (let slot = (lo ^ Math.imul(hi, 0x9e3779b1)) & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id === EMPTY) return EMPTY;
      if (this.halves[2 * id + 1] === lo && this.halves[2 * id] === hi) return id;
    }
  }

  /** The number of a key, given the next one on first sight. */
  idOf(hi: number, lo: number): number {
    const found = this.find(hi, lo);
    if (found !== EMPTY) return found;
    const id = this.count++;
    if (2 * id + 2 > this.halves.length) {
      if (id >= MAX_KEYS) throw new Error(`more than ${MAX_KEYS} distinct keys`);
      this.keys.resize(Math.min(this.keys.maxByteLength, Math.max(65_536, Math.ceil((this.keys.byteLength * 1.25) / 65_536) * 65_536)));
    }
    this.halves[2 * id] = hi;
    this.halves[2 * id + 1] = lo;
    if (this.count * 4 > this.slots.length * 3) this.rehash(this.slots.length * 2);
    else this.place(id);
    return id;
  }

  private place(id: number): void {
    const mask = this.slots.length - 1;
    let slot = (this.halves[2 * id + 1]! ^ Math.imul(this.halves[2 * id]!, 0x9e3779b1)) & mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.slots[slot] = id;
  }

  private clear(): void {
    this.count = 0;
    this.slots = new Int32Array(1024).fill(EMPTY);
    this.keys.resize(0);
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size).fill(EMPTY);
    for (let id = 0; id < this.count; id++) this.place(id);
  }
}
