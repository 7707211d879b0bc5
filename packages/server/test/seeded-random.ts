/**
 * The seeded generator of the tests and of the attack scripts (mulberry32): numbers in [0, 1) that
 * depend on the seed alone, so that statistical tests, generated data and fuzz cases are the same on
 * every run and a failure can be replayed.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}
