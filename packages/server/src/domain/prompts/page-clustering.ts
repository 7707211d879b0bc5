import { BandIndex, bandKeyWords } from './band-index';
import type { ClusterAssignment, SignedPrompt } from './prompt-cluster-index';
import { BANDS, MIN_AGREEING, SIGNATURE_LENGTH } from './prompt-clusters';

/** The clusters stored before a page, as an instance keeps them in memory (services/prompt-cluster-index.ts). */
export interface StoredClusters {
  readonly bands: BandIndex;
  /** The founding signatures: member `m`'s at `m * SIGNATURE_LENGTH` (the array grows: asked for at each page). */
  signatures(): Uint32Array;
  /**
   * Null when the member numbers are the order the candidates are met in (oldest first, then by
   * id); otherwise that order as a comparison of two members.
   */
  order(): ((left: number, right: number) => number) | null;
  /** A stored cluster's member number (undefined when not stored). */
  memberOf(cluster: string): number | undefined;
  /** A stored member's cluster id. */
  idOf(member: number): string;
}

/**
 * The clusters of a page's prompts, in page order, as assignSignedClusters gives them over the
 * stored clusters sharing a band key (met oldest first) and those founded earlier in the page (met
 * after, in founding order): the most similar founding signature at or above the threshold, the
 * first met on a tie. Without its objects: each prompt's candidates are tallied by member number
 * with the band keys they share, and met in order of those counts (most first), which bounds what
 * the rest can agree on (a band not shared has at least one value that differs: at most
 * 128 − (32 − shared) values agree), so the comparisons stop where no candidate left can win; the
 * choice is the same, only fewer signatures are compared (the bench's prompts of 30 words meet
 * hundreds of candidates each).
 */
export class PageClustering {
  /** The page's founded clusters: their band keys, signatures, ids, and the stored cluster of the same id (−1: none). */
  private readonly pageBands = new BandIndex();
  private pageSignatures = new Uint32Array(SIGNATURE_LENGTH * 256);
  private readonly pageIds: string[] = [];
  private pageTwins = new Int32Array(256);
  /** Band keys shared per member (stored: `storedCounts`, page: `pageCounts`), and the members touched. */
  private storedCounts = new Int32Array(1024);
  private pageCounts = new Int32Array(256);
  private storedTouched = new Int32Array(1024);
  private storedTouchedCount = 0;
  private pageTouched = new Int32Array(256);
  private pageTouchedCount = 0;
  /** Candidates in the order met (stored members; page members as PAGE_BASE + number), then by shared keys. */
  private met = new Int32Array(1024);
  private byShared = new Int32Array(1024);
  private readonly bucketStarts = new Int32Array(BANDS + 2);
  private readonly words = new Uint32Array(BANDS * 2);
  private readonly countStored = (member: number) => {
    const before = this.storedCounts[member]!;
    this.storedCounts[member] = before + 1;
    if (before === 0) this.storedTouched[this.storedTouchedCount++] = member;
  };
  private readonly countPage = (member: number) => {
    const before = this.pageCounts[member]!;
    this.pageCounts[member] = before + 1;
    if (before === 0) this.pageTouched[this.pageTouchedCount++] = member;
  };

  constructor(private readonly stored: StoredClusters) {}

  /** Assigns a page's prompts in order; null for a prompt with nothing left after normalisation. */
  assign(prompts: readonly SignedPrompt[]): (ClusterAssignment | null)[] {
    this.pageBands.clear();
    this.pageIds.length = 0;
    this.fit(this.stored.bands.size, prompts.length);
    return prompts.map(({ id, signature, bands }) => {
      if (signature === null || bands === null) return null;
      const joined = this.match(signature, bands);
      if (joined !== null) return { cluster: joined, founded: false };
      this.found(id, signature, bands);
      return { cluster: id, founded: true, signature, bands };
    });
  }

  /** The cluster a prompt joins, or null. */
  private match(signature: Uint32Array, bands: readonly string[]): string | null {
    bandKeyWords(bands, this.words);
    for (let band = 0; band < BANDS; band++) {
      const high = this.words[band * 2]!;
      const low = this.words[band * 2 + 1]!;
      this.stored.bands.lookupWords(band, high, low, this.countStored);
      this.pageBands.lookupWords(band, high, low, this.countPage);
    }
    const metCount = this.orderMet();
    const best = this.best(signature, metCount);
    for (let index = 0; index < this.storedTouchedCount; index++) this.storedCounts[this.storedTouched[index]!] = 0;
    for (let index = 0; index < this.pageTouchedCount; index++) this.pageCounts[this.pageTouched[index]!] = 0;
    this.storedTouchedCount = 0;
    this.pageTouchedCount = 0;
    if (best < 0) return null;
    const code = this.met[best]!;
    return code >= PAGE_BASE ? this.pageIds[code - PAGE_BASE]! : this.stored.idOf(code);
  }

  /**
   * Lays the candidates out in the order met (`met`), stored ones first, a page cluster whose id a
   * stored candidate already has left out (as the seen ids were), then their positions by shared
   * keys, most first and in order met within a count (`byShared`). Returns how many.
   */
  private orderMet(): number {
    const storedCount = this.storedTouchedCount;
    const stored = this.storedTouched.subarray(0, storedCount);
    const order = this.stored.order();
    if (order === null) stored.sort();
    else stored.sort(order);
    this.met.set(stored, 0);
    let count = storedCount;
    const page = this.pageTouched.subarray(0, this.pageTouchedCount).sort();
    for (const member of page) {
      const twin = this.pageTwins[member]!;
      if (twin >= 0 && this.storedCounts[twin]! > 0) continue;
      this.met[count++] = PAGE_BASE + member;
    }
    // A counting sort by shared keys (1 to 32), stable: positions ascending within a count.
    const starts = this.bucketStarts.fill(0);
    for (let position = 0; position < count; position++) starts[BANDS - this.sharedAt(position) + 1]! += 1;
    for (let bucket = 1; bucket <= BANDS + 1; bucket++) starts[bucket]! += starts[bucket - 1]!;
    for (let position = 0; position < count; position++) this.byShared[starts[BANDS - this.sharedAt(position)]!++] = position;
    return count;
  }

  private sharedAt(position: number): number {
    const code = this.met[position]!;
    return code >= PAGE_BASE ? this.pageCounts[code - PAGE_BASE]! : this.storedCounts[code]!;
  }

  /** The position (in order met) of the cluster to join, or −1. */
  private best(signature: Uint32Array, count: number): number {
    const storedSignatures = this.stored.signatures();
    let best = -1;
    let bestSame = MIN_AGREEING;
    for (let rank = 0; rank < count; rank++) {
      const position = this.byShared[rank]!;
      // To win, a candidate agrees on more values than the best so far, or as many and was met before it.
      const needed = best < 0 || position < best ? bestSame : bestSame + 1;
      const atMost = SIGNATURE_LENGTH - (BANDS - this.sharedAt(position));
      if (atMost < bestSame) break; // the counts only fall from here: nothing left reaches the best
      if (atMost < needed) continue;
      const code = this.met[position]!;
      const same =
        code >= PAGE_BASE
          ? agreeingAt(signature, this.pageSignatures, (code - PAGE_BASE) * SIGNATURE_LENGTH, SIGNATURE_LENGTH - needed)
          : agreeingAt(signature, storedSignatures, code * SIGNATURE_LENGTH, SIGNATURE_LENGTH - needed);
      if (same >= needed) {
        best = position;
        bestSame = same;
      }
    }
    return best;
  }

  private found(id: string, signature: Uint32Array, bands: readonly string[]): void {
    const member = this.pageBands.add(bands);
    this.pageSignatures.set(signature, member * SIGNATURE_LENGTH);
    this.pageIds.push(id);
    this.pageTwins[member] = this.stored.memberOf(id) ?? -1;
  }

  /** Scratch arrays large enough for every stored member and every prompt of the page. */
  private fit(storedMembers: number, pagePrompts: number): void {
    if (this.storedCounts.length < storedMembers) {
      const size = Math.max(storedMembers, this.storedCounts.length * 2);
      this.storedCounts = new Int32Array(size);
      this.storedTouched = new Int32Array(size);
    }
    const candidates = storedMembers + pagePrompts;
    if (this.met.length < candidates) {
      this.met = new Int32Array(Math.max(candidates, this.met.length * 2));
      this.byShared = new Int32Array(this.met.length);
    }
    if (this.pageCounts.length < pagePrompts) {
      const size = Math.max(pagePrompts, this.pageCounts.length * 2);
      this.pageCounts = new Int32Array(size);
      this.pageTouched = new Int32Array(size);
      this.pageTwins = new Int32Array(size);
      this.pageSignatures = new Uint32Array(size * SIGNATURE_LENGTH);
    }
  }
}

/** Page clusters' codes in `met`: above any stored member number. */
const PAGE_BASE = 1 << 30;

/** The values `left` and the signature at `offset` of `table` agree on, or −1 once they disagree on more than `allowedMisses`. */
function agreeingAt(left: Uint32Array, table: Uint32Array, offset: number, allowedMisses: number): number {
  let misses = 0;
  for (let index = 0; index < SIGNATURE_LENGTH; index++) if (left[index] !== table[offset + index] && ++misses > allowedMisses) return -1;
  return SIGNATURE_LENGTH - misses;
}
