/**
 * Model names met by the byte scanner, found by a hash of their bytes and checked word by word: a
 * name is decoded to a string only the first time it is seen. Open addressing in typed arrays: the
 * lookup runs twice per vote, and a Map of hash to chained entries cost about a fifth of the scan
 * on 2.5M votes.
 *
 * The hash runs over little-endian 32-bit words (the last one holding the 1–3 bytes left, zero
 * above), then the length, then a final mix: the usual-line reader (usual-vote-line.ts) computes
 * the same value word by word while it looks for the closing quote, four bytes per step.
 */
export class ByteNameTable {
  private mask = (1 << 10) - 1;
  /** Per slot: 1 + the entry's number, 0 when free. */
  private slots = new Int32Array(this.mask + 1);
  private slotHashes = new Int32Array(this.mask + 1);
  private readonly entries: { words: Int32Array; length: number; hash: number; index: number }[] = [];

  /** The index of bytes[from, to) (hashed as `hash`, see {@link hashBytes}); `add` gives a new name its index. */
  indexOf(view: DataView, bytes: Uint8Array, from: number, to: number, hash: number, add: (name: string) => number): number {
    let slot = hash & this.mask;
    for (;;) {
      const entry = this.slots[slot]!;
      if (entry === 0) break;
      if (this.slotHashes[slot] === hash) {
        const known = this.entries[entry - 1]!;
        if (known.length === to - from && sameWords(known.words, view, bytes, from, to)) return known.index;
      }
      slot = (slot + 1) & this.mask;
    }
    const name = Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString('utf8');
    const index = add(name);
    const words = new Int32Array((to - from + 3) >> 2);
    for (let at = from; at < to; at++) words[(at - from) >> 2]! |= bytes[at]! << (((at - from) & 3) * 8);
    this.entries.push({ words, length: to - from, hash, index });
    // kept at most half full, so that a probe ends soon
    if (this.entries.length * 2 > this.mask) this.grow();
    else this.place(this.entries.length, hash);
    return index;
  }

  private place(entry: number, hash: number): void {
    let slot = hash & this.mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
    this.slots[slot] = entry;
    this.slotHashes[slot] = hash;
  }

  private grow(): void {
    this.mask = this.mask * 2 + 1;
    this.slots = new Int32Array(this.mask + 1);
    this.slotHashes = new Int32Array(this.mask + 1);
    this.entries.forEach((entry, number) => this.place(number + 1, entry.hash));
  }
}

export const HASH_SEED = 0x811c9dc5 | 0;
export const HASH_PRIME = 0x01000193;

/** The last step of the name hash: the length, then a mix (the table's slot is the low bits). */
export function finishHash(hash: number, length: number): number {
  let mixed = Math.imul(hash ^ length, HASH_PRIME);
  mixed ^= mixed >>> 16;
  mixed = Math.imul(mixed, 0x85ebca6b);
  return mixed ^ (mixed >>> 13);
}

/** The name hash of bytes[from, to) (the reader of other lines; the usual-line reader inlines it). */
export function hashBytes(view: DataView, bytes: Uint8Array, from: number, to: number): number {
  let hash = HASH_SEED;
  let at = from;
  for (; at + 4 <= to; at += 4) hash = Math.imul(hash ^ view.getInt32(at, true), HASH_PRIME);
  if (at < to) {
    let word = 0;
    for (let last = to - 1; last >= at; last--) word = (word << 8) | bytes[last]!;
    hash = Math.imul(hash ^ word, HASH_PRIME);
  }
  return finishHash(hash, to - from);
}

/** Whether bytes[from, to) hold the name stored as `words` (same length checked by the caller). */
function sameWords(words: Int32Array, view: DataView, bytes: Uint8Array, from: number, to: number): boolean {
  let at = from;
  let word = 0;
  for (; at + 4 <= to; at += 4, word++) if (view.getInt32(at, true) !== words[word]) return false;
  const last = words[word] ?? 0;
  for (let shift = 0; at < to; at++, shift += 8) if (bytes[at] !== ((last >>> shift) & 0xff)) return false;
  return true;
}

/** Whether bytes[from, to) equal `name` (a loop: cheaper than a native call for a few bytes). */
export function sameBytes(name: Uint8Array, bytes: Uint8Array, from: number, to: number): boolean {
  if (name.length !== to - from) return false;
  for (let index = 0; index < name.length; index++) if (name[index] !== bytes[from + index]) return false;
  return true;
}
