import { describe, expect, it } from 'vitest';
import { DenseIds64, hash64 } from './dense-ids';
import { DuelDigestSet } from './duel-digest-set';

/** The key halves of these duel ids, numbered in order as the vote columns number their rows. */
function keysOf(ids: readonly string[]): Uint32Array {
  const table = new DenseIds64();
  for (const id of ids) table.idOf(...hash64(id));
  return table.keyHalves();
}

describe('DuelDigestSet', () => {
  const ids = Array.from({ length: 5000 }, (_, index) => `duel-${index}`);

  it('holds the duels of the marked rows and no other', () => {
    const marks = new Uint8Array(ids.length);
    for (let row = 0; row < ids.length; row += 7) marks[row] = 1 << (row % 8);
    const set = DuelDigestSet.ofMarkedRows(keysOf(ids), marks);
    expect(set.size).toBe(Math.ceil(ids.length / 7));
    for (let row = 0; row < ids.length; row++) expect(set.has(ids[row]!), ids[row]).toBe(row % 7 === 0);
    expect(set.has('a duel never seen')).toBe(false);
  });

  it('names no duel for rows past the keys (unkeyed votes) and is empty without marks', () => {
    const keys = keysOf(ids.slice(0, 3));
    expect(DuelDigestSet.ofMarkedRows(keys, Uint8Array.of(0, 1, 0, 1, 1)).size).toBe(1);
    expect(DuelDigestSet.ofMarkedRows(keys, new Uint8Array(3)).has(ids[0]!)).toBe(false);
  });
});
