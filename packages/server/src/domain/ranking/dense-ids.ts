/*
 * Numbers for strings without keeping the strings: the live leaderboard's columns name millions of
 * duels, visitors and client addresses, and a Map of their ids would cost more than the columns
 * themselves (about a hundred bytes an entry against eight here). Each string is reduced to a 64-bit
 * hash, and a hash table in typed arrays gives it a dense number (0, 1, 2… in order of first sight).
 *
 * Two different strings share a number only when their 64-bit hashes collide: among 2.5 million
 * strings, a chance of about 2 in 10 million (n² / 2⁶⁵). A collision merges two duels (the later
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

/**
 * Dense numbers for 64-bit keys: open addressing with linear probing, at most half full. Holds 8
 * bytes of key per entry plus 8 to 16 bytes of table.
 */
export class DenseIds64 {
  private hi: Uint32Array = new Uint32Array(1024);
  private lo: Uint32Array = new Uint32Array(1024);
  private slots = new Int32Array(2048).fill(EMPTY);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The number of a key, or -1 when it was never seen. */
  find(hi: number, lo: number): number {
    const mask = this.slots.length - 1;
    for (let slot = (lo ^ Math.imul(hi, 0x9e3779b1)) & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id === EMPTY) return EMPTY;
      if (this.lo[id] === lo && this.hi[id] === hi) return id;
    }
  }

  /** The number of a key, given the next one on first sight. */
  idOf(hi: number, lo: number): number {
    const found = this.find(hi, lo);
    if (found !== EMPTY) return found;
    const id = this.count++;
    if (id === this.hi.length) {
      const capacity = Math.ceil(this.hi.length * 1.5);
      this.hi = grownCopy(this.hi, capacity);
      this.lo = grownCopy(this.lo, capacity);
    }
    this.hi[id] = hi;
    this.lo[id] = lo;
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(id);
    return id;
  }

  private place(id: number): void {
    const mask = this.slots.length - 1;
    let slot = (this.lo[id]! ^ Math.imul(this.hi[id]!, 0x9e3779b1)) & mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.slots[slot] = id;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size).fill(EMPTY);
    for (let id = 0; id < this.count; id++) this.place(id);
  }
}

function grownCopy(array: Uint32Array, capacity: number): Uint32Array {
  const next = new Uint32Array(capacity);
  next.set(array);
  return next;
}
