/**
 * A source of uniform random numbers. Domain code never calls `Math.random()`: every random draw
 * (bootstrap resampling, synthetic data) goes through a `RandomSource` passed in by the caller.
 */
export interface RandomSource {
  /** A uniform double in [0, 1) with 53 random bits. */
  nextDouble(): number;
  /** A uniform unsigned 32-bit integer. */
  nextUint32(): number;
}

/**
 * A seeded xoshiro128** generator (Blackman & Vigna), seeded through splitmix32. Fast, 32-bit
 * arithmetic only, period 2^128 − 1. The same seed gives the same stream on every platform, so a
 * bootstrap with a given seed is reproducible (seeds are not portable to numpy's generators).
 *
 * @param seed any finite number; its low 32 bits and the high word of its integer part are used.
 */
export function createSeededRandom(seed: number): RandomSource {
  let splitState = (Math.trunc(seed) ^ Math.trunc(seed / 4294967296)) >>> 0;
  const splitmix32 = (): number => {
    splitState = (splitState + 0x9e3779b9) >>> 0;
    let z = splitState;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let s0 = splitmix32();
  let s1 = splitmix32();
  let s2 = splitmix32();
  let s3 = splitmix32();
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1;

  const nextUint32 = (): number => {
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 11);
    return result;
  };
  return {
    nextUint32,
    nextDouble: () => ((nextUint32() >>> 5) * 67108864 + (nextUint32() >>> 6)) / 9007199254740992,
  };
}

function rotl(value: number, shift: number): number {
  return (value << shift) | (value >>> (32 - shift));
}

/**
 * Derives an independent stream for sub-task `index` (for example one bootstrap worker) from a
 * base seed, so that splitting work does not reuse the same random numbers.
 */
export function deriveSeed(seed: number, index: number): number {
  const mixed = createSeededRandom(seed ^ Math.imul(index + 1, 0x9e3779b1));
  return mixed.nextUint32();
}
