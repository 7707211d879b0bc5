/*
 * Near-duplicate prompts (docs/ranking.md#duplicate-prompts): a prompt is normalised, cut into
 * character 5-grams, summarised by a MinHash signature of 128 values, and its signature's 32 bands
 * of 4 values are the keys that find candidate clusters (LSH banding). A candidate whose founding
 * prompt's signature agrees on at least PROMPT_CLUSTER_THRESHOLD of its values (the estimated
 * Jaccard similarity of the two 5-gram sets) is the prompt's cluster; otherwise the prompt founds
 * one. The hash functions are fixed seeds: the same prompt gets the same signature on every instance.
 */

/** Values in a signature. */
export const SIGNATURE_LENGTH = 128;
/** Bands of {@link BAND_ROWS} values: a pair at Jaccard 0.7 shares a band with probability 1 − (1 − 0.7⁴)³² ≈ 0.9996. */
export const BANDS = 32;
export const BAND_ROWS = 4;
/** Characters per shingle. */
export const SHINGLE_LENGTH = 5;
/**
 * Estimated Jaccard similarity from which two prompts are one cluster. 0.7 rather than 0.8: one
 * typo in a 40-character prompt changes 5 of its ~36 shingles (J ≈ 0.76); two different questions
 * that share a long frame ("What is the capital of France/Spain?") stay near 0.6 (measured on the
 * synthetic set of prompt-clusters.test.ts).
 */
export const PROMPT_CLUSTER_THRESHOLD = 0.7;

/** Format characters (zero-width spaces and joiners, soft hyphens, bidirectional marks), punctuation and symbols. */
const FORMAT = /\p{Cf}/gu;
const PUNCTUATION = /[\p{P}\p{S}]/gu;
const SPACES = /\s+/gu;

/**
 * The text two prompts are compared on: NFKC (fullwidth and compatibility forms to their plain
 * letters), case-folded, format characters removed, punctuation and symbols turned into spaces,
 * runs of spaces made one. Letters and digits of every script are kept.
 */
export function normalisePrompt(text: string): string {
  const folded = text.normalize('NFKC').toLowerCase().toUpperCase().toLowerCase().normalize('NFKC');
  return folded.replace(FORMAT, '').replace(PUNCTUATION, ' ').replace(SPACES, ' ').trim();
}

/** Murmur3's finaliser: a bijection of 32-bit integers that mixes every bit. */
export function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a over the UTF-16 code units of `text` from `start` to `end`, mixed. */
function hashSlice(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let index = start; index < end; index++) h = Math.imul(h ^ text.charCodeAt(index), 0x01000193);
  return mix32(h);
}

/** The seeds of the signature's hash functions: a fixed sequence (splitmix32 from one constant). */
const SEEDS = (() => {
  const seeds = new Uint32Array(SIGNATURE_LENGTH);
  let state = 0x9e3779b9;
  for (let index = 0; index < SIGNATURE_LENGTH; index++) {
    state = (state + 0x9e3779b9) >>> 0;
    seeds[index] = mix32(state ^ 0x5bd1e995);
  }
  return seeds;
})();

/** The distinct hashed 5-grams of a normalised prompt, by code point (a text shorter than 5 is one shingle; empty: none). */
export function shingles(normalised: string): Set<number> {
  return new Set(shingleHashes(normalised));
}

/**
 * The same shingles as {@link shingles}, sorted and distinct in a typed array: the signature's
 * form (every first prompt is signed, on the rules layer's threads: no Set, no array of code points).
 */
function shingleHashes(text: string): Uint32Array {
  if (text.length === 0) return new Uint32Array(0);
  // Offsets of code points in UTF-16 units (a surrogate pair is one), so that a shingle never cuts one.
  const starts = new Int32Array(text.length + 1);
  let points = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    const pairEnd = unit >= 0xdc00 && unit <= 0xdfff && index > 0 && (text.charCodeAt(index - 1) & 0xfc00) === 0xd800;
    if (!pairEnd) starts[points++] = index;
  }
  starts[points] = text.length;
  const count = Math.max(1, points - SHINGLE_LENGTH + 1);
  const hashes = new Uint32Array(count);
  for (let index = 0; index < count; index++)
    hashes[index] = hashSlice(text, starts[index]!, starts[Math.min(index + SHINGLE_LENGTH, points)]!);
  hashes.sort();
  let distinct = 0;
  for (let index = 0; index < count; index++) if (index === 0 || hashes[index] !== hashes[index - 1]) hashes[distinct++] = hashes[index]!;
  return hashes.subarray(0, distinct);
}

/** The MinHash signature of a set of shingles: per seed, the least mixed value of (shingle xor seed). An empty set's is all 0xffffffff. */
export function minHashSignature(shingleSet: ReadonlySet<number> | Uint32Array): Uint32Array {
  const values = shingleSet instanceof Uint32Array ? shingleSet : Uint32Array.from(shingleSet);
  const signature = new Uint32Array(SIGNATURE_LENGTH);
  // Seed by seed, the least value kept in a local (mix32 written out: this loop is most of a signature's time).
  for (let index = 0; index < SIGNATURE_LENGTH; index++) {
    const seed = SEEDS[index]!;
    let least = 0xffffffff;
    for (let shingle = 0; shingle < values.length; shingle++) {
      let h = values[shingle]! ^ seed;
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      h ^= h >>> 16;
      h >>>= 0;
      if (h < least) least = h;
    }
    signature[index] = least;
  }
  return signature;
}

/** A prompt's signature (normalised, shingled, MinHashed); null when nothing is left of it after normalisation. */
export function promptSignature(prompt: string): Uint32Array | null {
  const hashes = shingleHashes(normalisePrompt(prompt));
  return hashes.length === 0 ? null : minHashSignature(hashes);
}

/** The share of values two signatures agree on: an unbiased estimate of the Jaccard similarity of their shingle sets. */
export function estimatedJaccard(left: Uint32Array, right: Uint32Array): number {
  let same = 0;
  for (let index = 0; index < SIGNATURE_LENGTH; index++) if (left[index] === right[index]) same++;
  return same / SIGNATURE_LENGTH;
}

/** The exact Jaccard similarity of two prompts' shingle sets (the reference the estimate is tested against). */
export function exactJaccard(left: string, right: string): number {
  const a = shingles(normalisePrompt(left));
  const b = shingles(normalisePrompt(right));
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const value of a) if (b.has(value)) shared++;
  return shared / (a.size + b.size - shared);
}

/** The band keys of a signature: `band:hash` of its 4 values, one per band (the index the store keeps per cluster). */
export function bandKeys(signature: Uint32Array): string[] {
  const keys: string[] = [];
  for (let band = 0; band < BANDS; band++) {
    let high = mix32(band + 1);
    let low = mix32(band + 0x1000);
    for (let row = 0; row < BAND_ROWS; row++) {
      const value = signature[band * BAND_ROWS + row]!;
      high = mix32(high ^ value);
      low = mix32(Math.imul(low, 31) ^ value ^ 0x27d4eb2f);
    }
    // From the byte table, as encodeSignature (every first prompt's 32 keys; toString and padStart took about a third of a signature's time).
    keys.push(BAND_PREFIXES[band]! + hexWord(high) + hexWord(low));
  }
  return keys;
}

/** A cluster as the matcher sees it: its id and its founding prompt's signature. */
export interface ClusterCandidate {
  cluster: string;
  signature: Uint32Array;
}

/**
 * The cluster a signature joins among the candidates its band keys found: the most similar one at
 * or above the threshold (the earliest listed on a tie), or null (the prompt founds a cluster).
 * Matching against each cluster's founding signature, not its every member, keeps clusters from
 * drifting link by link into prompts that share nothing.
 */
export function matchCluster(signature: Uint32Array, candidates: readonly ClusterCandidate[]): string | null {
  let best: string | null = null;
  let bestSimilarity = PROMPT_CLUSTER_THRESHOLD;
  // A candidate that already disagrees on more values than the one to beat allows cannot win: its
  // comparison stops there (prompts of a small vocabulary meet hundreds of candidates each).
  let allowedMisses = SIGNATURE_LENGTH - MIN_AGREEING;
  for (const candidate of candidates) {
    const same = agreeingValues(signature, candidate.signature, allowedMisses);
    if (same < 0) continue;
    const similarity = same / SIGNATURE_LENGTH;
    if (similarity >= bestSimilarity && (best === null || similarity > bestSimilarity)) {
      allowedMisses = SIGNATURE_LENGTH - same - 1;
      best = candidate.cluster;
      bestSimilarity = similarity;
    }
  }
  return best;
}

/** The fewest agreeing values at which two signatures are one cluster (same / 128 ≥ the threshold). */
export const MIN_AGREEING = (() => {
  let same = 0;
  while (same / SIGNATURE_LENGTH < PROMPT_CLUSTER_THRESHOLD) same++;
  return same;
})();

/** The values two signatures agree on, or −1 as soon as they disagree on more than `allowedMisses`. */
export function agreeingValues(left: Uint32Array, right: Uint32Array, allowedMisses: number): number {
  let misses = 0;
  for (let index = 0; index < SIGNATURE_LENGTH; index++) if (left[index] !== right[index] && ++misses > allowedMisses) return -1;
  return SIGNATURE_LENGTH - misses;
}

/** A signature stored as text: 128 values in hexadecimal (1,024 characters). */
export function encodeSignature(signature: Uint32Array): string {
  // Byte by byte from a table: the post-processing page encodes every founded cluster's (measured: about a sixth of padStart's time).
  let text = '';
  for (const value of signature)
    text += HEX_BYTES[value >>> 24]! + HEX_BYTES[(value >>> 16) & 0xff]! + HEX_BYTES[(value >>> 8) & 0xff]! + HEX_BYTES[value & 0xff]!;
  return text;
}

const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const BAND_PREFIXES = Array.from({ length: BANDS }, (_, band) => `${band}:`);

/** A 32-bit value as 8 lower-case hexadecimal digits. */
function hexWord(value: number): string {
  return HEX_BYTES[value >>> 24]! + HEX_BYTES[(value >>> 16) & 0xff]! + HEX_BYTES[(value >>> 8) & 0xff]! + HEX_BYTES[value & 0xff]!;
}

export function decodeSignature(text: string): Uint32Array {
  const signature = new Uint32Array(SIGNATURE_LENGTH);
  for (let index = 0; index < SIGNATURE_LENGTH; index++) signature[index] = Number.parseInt(text.slice(index * 8, index * 8 + 8), 16);
  return signature;
}
