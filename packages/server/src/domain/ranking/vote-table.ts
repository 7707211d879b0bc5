/**
 * Outcome of one pairwise vote. `tie` and `both_bad` both count as half a win for each side
 * (label y = ½, weight 1); they are kept apart only for reporting.
 */
export type VoteOutcome = 'model_a' | 'model_b' | 'tie' | 'both_bad';

/** Numeric codes of {@link VoteOutcome} in a {@link VoteTable}. */
export const OUTCOME_CODE = { model_a: 0, model_b: 1, tie: 2, both_bad: 3 } as const;

/** Soft label y (model_a wins = 1) of each outcome code. */
export const OUTCOME_LABEL: readonly number[] = [1, 0, 0.5, 0.5];

/** Style features in their fixed order: tokens (length), headers, lists, bold. */
export const STYLE_FEATURES = ['len', 'headers', 'lists', 'bold'] as const;

/** One of {@link STYLE_FEATURES}. */
export type StyleFeature = (typeof STYLE_FEATURES)[number];

/** Raw per-side style counts of one vote (non-negative integers). */
export interface StyleCounts {
  /** Output tokens of the assistant messages. */
  len: number;
  headers: number;
  lists: number;
  bold: number;
}

/** One pairwise vote, the input of the ranking. */
/** Both sides' style counts in {@link VoteTable.style}'s order: len, headers, lists, bold, each a then b. */
export function styleCountsInOrder(style: { a: StyleCounts; b: StyleCounts }): number[] {
  const { a, b } = style;
  return [a.len, b.len, a.headers, b.headers, a.lists, b.lists, a.bold, b.bold];
}

export interface PairwiseVote {
  modelA: string;
  modelB: string;
  outcome: VoteOutcome;
  /** Style counts of both sides, needed only by the style-controlled variants. */
  style?: { a: StyleCounts; b: StyleCounts } | undefined;
}

/**
 * Votes in columns, models indexed in sorted-name order. Self-play votes (model_a = model_b)
 * have already been dropped. This is what every ranking function works on.
 */
export interface VoteTable {
  /** Model names, sorted (code-unit order); the index of a name is its model index. */
  readonly models: readonly string[];
  readonly length: number;
  readonly modelA: Int32Array;
  readonly modelB: Int32Array;
  /** {@link OUTCOME_CODE} of each vote. */
  readonly outcome: Uint8Array;
  /**
   * Raw style counts, 8 per vote in the order len_a, len_b, headers_a, headers_b, lists_a,
   * lists_b, bold_a, bold_b; undefined when no vote carried style counts. 16-bit while every
   * count fits (half the memory), 32-bit otherwise.
   */
  readonly style: Uint16Array | Uint32Array | undefined;
  /** Number of votes that had style counts (all of them, or the style fit cannot run). */
  readonly votesWithStyle: number;
  /** Votes seen, self-play included. */
  readonly votesRaw: number;
  /** Self-play votes dropped before anything else. */
  readonly selfPlayDropped: number;
}

/**
 * Incremental builder of a {@link VoteTable} with growable typed arrays, so that millions of votes
 * never exist as objects. Model names are interned as they arrive and re-indexed in sorted order
 * by {@link VoteTableBuilder.finish}.
 */
export class VoteTableBuilder {
  private readonly indexByName = new Map<string, number>();
  private readonly names: string[] = [];
  private capacity: number;
  private size = 0;
  private a: Int32Array;
  private b: Int32Array;
  private outcomes: Uint8Array;
  private style: Uint16Array | Uint32Array | undefined;
  private withStyle = 0;
  private raw = 0;
  private selfPlay = 0;
  /** False once {@link leaveOutStyle} is called: style counts are then dropped as they come. */
  private keepStyle = true;

  constructor(initialCapacity = 1024) {
    this.capacity = Math.max(16, initialCapacity);
    this.a = new Int32Array(this.capacity);
    this.b = new Int32Array(this.capacity);
    this.outcomes = new Uint8Array(this.capacity);
  }

  /** Index of a model name in arrival order (used by fast readers to skip repeated lookups). */
  modelIndex(name: string): number {
    let index = this.indexByName.get(name);
    if (index === undefined) {
      index = this.names.length;
      this.indexByName.set(name, index);
      this.names.push(name);
    }
    return index;
  }

  /**
   * Drops the style counts of the votes added from now on (the table then has none): a reader
   * whose caller fits no style control keeps 16 bytes a vote less, 40 MB on 2.5M votes.
   */
  leaveOutStyle(): void {
    this.keepStyle = false;
  }

  /**
   * Adds one vote by arrival-order model indices (see {@link modelIndex}). `styleCounts`, when
   * given, holds the 8 raw counts in {@link VoteTable.style} order. Self-play is counted and
   * dropped here.
   */
  addIndexed(a: number, b: number, outcomeCode: number, styleCounts?: ArrayLike<number>): void {
    this.raw += 1;
    if (a === b) {
      this.selfPlay += 1;
      return;
    }
    if (this.size === this.capacity) this.grow();
    const row = this.size;
    this.a[row] = a;
    this.b[row] = b;
    this.outcomes[row] = outcomeCode;
    if (styleCounts && this.keepStyle) this.addStyle(row, styleCounts);
    this.size = row + 1;
  }

  private addStyle(row: number, counts: ArrayLike<number>): void {
    let style = (this.style ??= new Uint16Array(this.capacity * 8));
    const base = row * 8;
    if (style instanceof Uint16Array) {
      let wide = false;
      for (let k = 0; k < 8; k++) if (counts[k]! > 0xffff) wide = true;
      if (wide) style = this.style = copyInto(new Uint32Array(this.capacity * 8), style);
    }
    for (let k = 0; k < 8; k++) style[base + k] = counts[k]!;
    this.withStyle += 1;
  }

  /** Adds one vote given as an object. */
  add(vote: PairwiseVote): void {
    const counts = vote.style ? styleCountsInOrder(vote.style) : undefined;
    this.addIndexed(this.modelIndex(vote.modelA), this.modelIndex(vote.modelB), OUTCOME_CODE[vote.outcome], counts);
  }

  /**
   * Makes room for `capacity` votes in one step (readers that can estimate the vote count avoid
   * the doubling growth and its slack).
   */
  reserve(capacity: number): void {
    if (capacity > this.capacity) this.resize(capacity);
  }

  /** Number of votes kept so far (self-play excluded). */
  get votesUsed(): number {
    return this.size;
  }

  /** Re-indexes models in sorted order and returns the table; the builder must not be reused. */
  finish(): VoteTable {
    const used = new Uint8Array(this.names.length);
    for (let i = 0; i < this.size; i++) {
      used[this.a[i]!] = 1;
      used[this.b[i]!] = 1;
    }
    const kept = this.names.filter((_, index) => used[index] === 1);
    const models = [...kept].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    const sortedIndex = new Map(models.map((name, index) => [name, index]));
    const remap = new Int32Array(this.names.length).fill(-1);
    this.names.forEach((name, index) => {
      remap[index] = sortedIndex.get(name) ?? -1;
    });
    const a = this.a.subarray(0, this.size);
    const b = this.b.subarray(0, this.size);
    for (let i = 0; i < this.size; i++) {
      a[i] = remap[a[i]!]!;
      b[i] = remap[b[i]!]!;
    }
    return {
      models,
      length: this.size,
      modelA: a,
      modelB: b,
      outcome: this.outcomes.subarray(0, this.size),
      style: this.style?.subarray(0, this.size * 8),
      votesWithStyle: this.withStyle,
      votesRaw: this.raw,
      selfPlayDropped: this.selfPlay,
    };
  }

  private grow(): void {
    this.resize(this.capacity * 2);
  }

  private resize(capacity: number): void {
    this.capacity = capacity;
    this.a = copyInto(new Int32Array(capacity), this.a.subarray(0, this.size));
    this.b = copyInto(new Int32Array(capacity), this.b.subarray(0, this.size));
    this.outcomes = copyInto(new Uint8Array(capacity), this.outcomes.subarray(0, this.size));
    if (this.style) {
      const wider = this.style instanceof Uint32Array ? new Uint32Array(capacity * 8) : new Uint16Array(capacity * 8);
      this.style = copyInto(wider, this.style.subarray(0, this.size * 8));
    }
  }
}

function copyInto<T extends Int32Array | Uint8Array | Uint16Array | Uint32Array>(
  target: T,
  source: Int32Array | Uint8Array | Uint16Array | Uint32Array,
): T {
  target.set(source);
  return target;
}

/** Builds a {@link VoteTable} from vote objects (self-play dropped, models in sorted order). */
export function buildVoteTable(votes: Iterable<PairwiseVote>): VoteTable {
  const builder = new VoteTableBuilder();
  for (const vote of votes) builder.add(vote);
  return builder.finish();
}

/**
 * Concatenates vote tables (for example the parts of a file read in parallel), in order. Model
 * indices are merged and re-sorted; self-play counts add up. Style counts are kept only when
 * every part has them on every vote.
 */
export function concatVoteTables(tables: readonly VoteTable[]): VoteTable {
  const models = [...new Set(tables.flatMap((table) => table.models))].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const indexOf = new Map(models.map((name, index) => [name, index]));
  const total = tables.reduce((sum, table) => sum + table.length, 0);
  const modelA = new Int32Array(total);
  const modelB = new Int32Array(total);
  const outcome = new Uint8Array(total);
  const fullStyle = tables.every((table) => table.style !== undefined && table.votesWithStyle === table.length);
  const wide = tables.some((table) => table.style instanceof Uint32Array);
  const style = fullStyle && total > 0 ? (wide ? new Uint32Array(total * 8) : new Uint16Array(total * 8)) : undefined;
  let offset = 0;
  for (const table of tables) {
    const remap = Int32Array.from(table.models, (name) => indexOf.get(name)!);
    for (let row = 0; row < table.length; row++) {
      modelA[offset + row] = remap[table.modelA[row]!]!;
      modelB[offset + row] = remap[table.modelB[row]!]!;
    }
    outcome.set(table.outcome.subarray(0, table.length), offset);
    if (style) style.set(table.style!.subarray(0, table.length * 8), offset * 8);
    offset += table.length;
  }
  return {
    models,
    length: total,
    modelA,
    modelB,
    outcome,
    style,
    votesWithStyle: tables.reduce((sum, table) => sum + table.votesWithStyle, 0),
    votesRaw: tables.reduce((sum, table) => sum + table.votesRaw, 0),
    selfPlayDropped: tables.reduce((sum, table) => sum + table.selfPlayDropped, 0),
  };
}
