/**
 * Model names met by the byte scanner, found by the FNV-1a hash of their bytes and checked byte
 * by byte: a name is decoded to a string only the first time it is seen. Open addressing in typed
 * arrays: the lookup runs twice per vote, and a Map of hash to chained entries cost about a
 * fifth of the scan on 2.5M votes.
 */
export class ByteNameTable {
  private mask = (1 << 10) - 1;
  /** Per slot: 1 + the entry's number, 0 when free. */
  private slots = new Int32Array(this.mask + 1);
  private slotHashes = new Int32Array(this.mask + 1);
  private readonly entries: { name: Uint8Array; hash: number; index: number }[] = [];

  /** The index of bytes[from, to) (hashed as `hash`); `add` gives a new name its index. */
  indexOf(bytes: Uint8Array, from: number, to: number, hash: number, add: (name: string) => number): number {
    let slot = hash & this.mask;
    for (;;) {
      const entry = this.slots[slot]!;
      if (entry === 0) break;
      if (this.slotHashes[slot] === hash) {
        const known = this.entries[entry - 1]!;
        if (sameBytes(known.name, bytes, from, to)) return known.index;
      }
      slot = (slot + 1) & this.mask;
    }
    const name = Uint8Array.prototype.slice.call(bytes, from, to);
    const index = add(Buffer.from(name.buffer, name.byteOffset, name.length).toString('utf8'));
    this.entries.push({ name, hash, index });
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

/** Whether bytes[from, to) equal `name` (a loop: cheaper than a native call for a few bytes). */
export function sameBytes(name: Uint8Array, bytes: Uint8Array, from: number, to: number): boolean {
  if (name.length !== to - from) return false;
  for (let index = 0; index < name.length; index++) if (name[index] !== bytes[from + index]) return false;
  return true;
}
