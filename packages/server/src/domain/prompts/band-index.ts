import { BANDS, mix32 } from './prompt-clusters';

/**
 * The band keys of many clusters in memory, 32 per cluster (bandKeys: `band:` and 64 bits in
 * hexadecimal): a multimap from a key to the clusters that have it. Typed arrays rather than a Map
 * of strings: 8 bytes a key, 4 for its link and 4 to 8 for its slot, about 500–650 bytes a
 * cluster, where a Map of the key strings took several times that. Keys are kept whole, so a match
 * is the same as the strings' equality. A slot holds one distinct key, its clusters linked from it:
 * where hundreds of clusters share a key (prompts of a small vocabulary), adding one more does not
 * walk past them all.
 */
export class BandIndex {
  /** The key of entry `member * BANDS + band`: its two 32-bit halves. */
  private high = new Uint32Array(BANDS * 1024);
  private low = new Uint32Array(BANDS * 1024);
  /** The next entry with the same key (entry + 1; 0: none). */
  private next = new Int32Array(BANDS * 1024);
  /** Open addressing, linear probing, one slot per distinct key: its latest entry + 1, 0 for an empty slot. */
  private slots = new Int32Array(1 << 16);
  private members = 0;

  get size(): number {
    return this.members;
  }

  /** Adds a cluster's 32 band keys (band order); returns its member number (0, 1, 2, … in order of adding). */
  add(keys: readonly string[]): number {
    if (keys.length !== BANDS) throw new RangeError(`a cluster has ${BANDS} band keys, not ${keys.length}`);
    const member = this.members;
    if ((member + 1) * BANDS > this.high.length) {
      this.high = grown(this.high);
      this.low = grown(this.low);
      const next = new Int32Array(this.high.length);
      next.set(this.next);
      this.next = next;
    }
    // Load factor at most one half: probes stay short even where many clusters share a key.
    if ((member + 1) * BANDS * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    this.members += 1;
    // Parsed without an object per key (every founded cluster is added twice: to its page's index, then to its instance's).
    for (let band = 0; band < BANDS; band++) {
      const key = keys[band]!;
      const colon = key.indexOf(':');
      if (bandNumber(key, colon) !== band) throw new RangeError(`band key ${key} is not of band ${band}`);
      const entry = member * BANDS + band;
      this.high[entry] = hexWord(key, colon + 1);
      this.low[entry] = hexWord(key, colon + 9);
      this.place(entry);
    }
    return member;
  }

  /** Calls `found(member)` for each cluster that has this band key. */
  lookup(key: string, found: (member: number) => void): void {
    const { band, high, low } = parseBandKey(key);
    this.lookupWords(band, high, low, found);
  }

  /** {@link lookup} of a key already parsed (a page parses each prompt's keys once for two indexes). */
  lookupWords(band: number, high: number, low: number, found: (member: number) => void): void {
    const mask = this.slots.length - 1;
    for (let slot = slotHash(band, high, low) & mask; ; slot = (slot + 1) & mask) {
      const stored = this.slots[slot]!;
      if (stored === 0) return;
      const head = stored - 1;
      if (this.high[head] !== high || this.low[head] !== low || head % BANDS !== band) continue;
      for (let entry = head; entry >= 0; entry = this.next[entry]! - 1) found((entry - band) / BANDS);
      return;
    }
  }

  /** Forgets every cluster, keeping the arrays (the page's own index is emptied for each page). */
  clear(): void {
    this.slots.fill(0);
    this.members = 0;
  }

  private place(entry: number): void {
    const mask = this.slots.length - 1;
    const band = entry % BANDS;
    const high = this.high[entry]!;
    const low = this.low[entry]!;
    let slot = slotHash(band, high, low) & mask;
    for (; this.slots[slot] !== 0; slot = (slot + 1) & mask) {
      const head = this.slots[slot]! - 1;
      if (this.high[head] === high && this.low[head] === low && head % BANDS === band) break;
    }
    // The key's clusters, latest first: the entry goes in front of those already there (none: 0).
    this.next[entry] = this.slots[slot]!;
    this.slots[slot] = entry + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let entry = 0; entry < this.members * BANDS; entry++) this.place(entry);
  }
}

function grown(values: Uint32Array): Uint32Array<ArrayBuffer> {
  const larger = new Uint32Array(values.length * 2);
  larger.set(values);
  return larger;
}

function slotHash(band: number, high: number, low: number): number {
  return mix32(high ^ mix32(low ^ Math.imul(band + 1, 0x9e3779b9)));
}

/** A band key's parts: `band:` then 16 hexadecimal digits (bandKeys), read without slicing (every lookup and every founded cluster parses 32). */
export function parseBandKey(key: string): { band: number; high: number; low: number } {
  const colon = key.indexOf(':');
  return { band: bandNumber(key, colon), high: hexWord(key, colon + 1), low: hexWord(key, colon + 9) };
}

/** The decimal band number before the colon of a band key. */
function bandNumber(key: string, colon: number): number {
  let band = 0;
  for (let index = 0; index < colon; index++) band = band * 10 + (key.charCodeAt(index) - 48);
  return band;
}

/** Eight hexadecimal digits (lower case) from `start`, as an unsigned 32-bit integer. */
function hexWord(key: string, start: number): number {
  let value = 0;
  for (let index = start; index < start + 8; index++) {
    const code = key.charCodeAt(index);
    value = (value << 4) | (code <= 57 ? code - 48 : code - 87);
  }
  return value >>> 0;
}

/** A cluster's band keys (band order, as bandKeys gives them) as words: the high then the low half of each, into `out` (64 values). */
export function bandKeyWords(keys: readonly string[], out: Uint32Array): void {
  for (let band = 0; band < keys.length; band++) {
    const key = keys[band]!;
    const colon = key.indexOf(':');
    out[band * 2] = hexWord(key, colon + 1);
    out[band * 2 + 1] = hexWord(key, colon + 9);
  }
}
