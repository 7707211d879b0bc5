import { DenseIds64, hash64 } from './dense-ids';

/**
 * A set of duels held by their 64-bit digests ({@link hash64}), not their ids: the votes the live
 * board's last refresh left out by the integrity rules or a reviewer, for the model sheets' tags and
 * the population board. Finding them again from the store meant reading every vote as objects
 * (13 s of CPU and 1 GB on 250,000 votes, the event loop stopped throughout); the refresh already
 * judged every vote over its columns. Eight bytes a flagged duel; a false "flagged" needs two
 * duel ids to share a digest (see dense-ids.ts).
 */
export class DuelDigestSet {
  private readonly digests = new DenseIds64();

  /** The duels at the rows where `marks` is not 0, given the columns' duel keys (hi, lo of row n at 2n, 2n + 1). */
  static ofMarkedRows(duelKeys: Uint32Array, marks: Uint8Array): DuelDigestSet {
    const set = new DuelDigestSet();
    // Rows past the keys are unkeyed votes (reaction matches): no duel to name.
    const rows = Math.min(marks.length, duelKeys.length >> 1);
    for (let row = 0; row < rows; row++) if (marks[row] !== 0) set.digests.idOf(duelKeys[2 * row]!, duelKeys[2 * row + 1]!);
    return set;
  }

  get size(): number {
    return this.digests.size;
  }

  has(duelId: string): boolean {
    const [hi, lo] = hash64(duelId);
    return this.digests.find(hi, lo) >= 0;
  }
}
