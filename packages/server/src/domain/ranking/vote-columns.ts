import type { VoteFacts } from '../arena/vote-integrity';
import type { ViewVote } from './leaderboard-views';

/*
 * The live leaderboard's votes as typed columns: what a refresh needs of each vote (models, choice,
 * flags, style counts, energy, the view keys, the integrity facts) in about a hundred bytes, where
 * the same votes as objects took kilobytes. A refresh streams the store into columns page by page,
 * so that no vote object outlives its page, and hands the columns to the ranking worker by transfer.
 */

/** A vote as the builder takes it: the view vote, and the facts of the integrity rules (arena votes; none for reaction matches). */
export interface VoteColumnsInput {
  view: ViewVote;
  facts?: VoteFacts | undefined;
}

/** Bits of {@link VoteColumns.baseFlags}: the flags a vote carries from the store. */
export const BASE_FLAG = { identity_leak: 1, served_model_mismatch: 2 } as const;
/** Bits of {@link VoteColumns.review}. */
export const REVIEW = { none: 0, count: 1, exclude: 2 } as const;
/** Choice codes: the same numbers as the ranking's outcome codes (a wins, b wins, tie, both bad). */
const CHOICE_CODE = { a: 0, b: 1, tie: 2, both_bad: 3 } as const;

/** The columns (plain data: typed arrays and name lists, transferable to a worker). */
export interface VoteColumns {
  length: number;
  models: string[];
  languages: string[];
  modes: string[];
  categories: string[];
  modelA: Int32Array;
  modelB: Int32Array;
  /** 0 a, 1 b, 2 tie, 3 both bad. */
  choice: Uint8Array;
  baseFlags: Uint8Array;
  /** 1 when the vote has style counts (then 8 of them in {@link style}). */
  hasStyle: Uint8Array;
  /** len_a, len_b, headers_a, headers_b, lists_a, lists_b, bold_a, bold_b per vote (the vote table's order). */
  style: Uint32Array;
  /** a.min, a.max, b.min, b.max of the revealed energy per vote (Wh), NaN when unknown. */
  energy: Float64Array;
  /** Index in {@link languages}, -1 when none. */
  language: Int32Array;
  mode: Int32Array;
  /** Each vote's categories: `categoryValues[categoryStart[i] .. categoryStart[i + 1]]`. */
  categoryStart: Int32Array;
  categoryValues: Int32Array;
  /** Integrity facts. `arena`: judged by the rules (the arena's own votes). */
  arena: Uint8Array;
  visitor: Int32Array;
  /** -1 when the address is unknown. */
  client: Int32Array;
  createdAtMs: Float64Array;
  /** NaN when unknown. */
  votedAfterMs: Float64Array;
  review: Uint8Array;
}

/** Grows a typed array by half again: a refresh of n votes holds at most about 1.5 n of each column. */
function grown<T extends Int32Array | Uint8Array | Uint32Array | Float64Array>(array: T, capacity: number): T {
  const next = new (array.constructor as new (length: number) => T)(capacity);
  next.set(array);
  return next;
}

class Interner {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();

  of(name: string): number {
    let found = this.index.get(name);
    if (found === undefined) {
      found = this.names.length;
      this.index.set(name, found);
      this.names.push(name);
    }
    return found;
  }
}

/**
 * Builds {@link VoteColumns} vote by vote. `finish` returns views of the arrays (no copy): their
 * buffers keep up to half again of slack, which costs less than copying them at the peak.
 */
export class VoteColumnsBuilder {
  private capacity = 1024;
  private size = 0;
  private readonly models = new Interner();
  private readonly languages = new Interner();
  private readonly modes = new Interner();
  private readonly categories = new Interner();
  private readonly visitors = new Interner();
  private readonly clients = new Interner();
  private modelA = new Int32Array(this.capacity);
  private modelB = new Int32Array(this.capacity);
  private choice = new Uint8Array(this.capacity);
  private baseFlags = new Uint8Array(this.capacity);
  private hasStyle = new Uint8Array(this.capacity);
  private style = new Uint32Array(this.capacity * 8);
  private energy = new Float64Array(this.capacity * 4);
  private language = new Int32Array(this.capacity);
  private mode = new Int32Array(this.capacity);
  private categoryStart = new Int32Array(this.capacity + 1);
  private categoryValues = new Int32Array(this.capacity);
  private categoryCount = 0;
  private arena = new Uint8Array(this.capacity);
  private visitor = new Int32Array(this.capacity);
  private client = new Int32Array(this.capacity);
  private createdAtMs = new Float64Array(this.capacity);
  private votedAfterMs = new Float64Array(this.capacity);
  private review = new Uint8Array(this.capacity);

  add({ view, facts }: VoteColumnsInput): void {
    if (this.size === this.capacity) this.grow(Math.ceil(this.capacity * 1.5));
    const row = this.size;
    const vote = view.vote;
    this.modelA[row] = this.models.of(vote.modelA);
    this.modelB[row] = this.models.of(vote.modelB);
    this.choice[row] = CHOICE_CODE[vote.choice];
    let flags = 0;
    for (const flag of vote.flags ?? []) {
      if (flag === 'identity_leak') flags |= BASE_FLAG.identity_leak;
      else if (flag === 'served_model_mismatch') flags |= BASE_FLAG.served_model_mismatch;
      else throw new Error(`a vote flag the columns do not hold: ${flag}`);
    }
    this.baseFlags[row] = flags;
    if (vote.style) {
      this.hasStyle[row] = 1;
      const { a, b } = vote.style;
      this.style.set([a.len, b.len, a.headers, b.headers, a.lists, b.lists, a.bold, b.bold], row * 8);
    } else this.hasStyle[row] = 0;
    const energyA = vote.energy?.a;
    const energyB = vote.energy?.b;
    this.energy.set(
      [energyA?.min ?? Number.NaN, energyA?.max ?? Number.NaN, energyB?.min ?? Number.NaN, energyB?.max ?? Number.NaN],
      row * 4,
    );
    this.language[row] = view.language === null ? -1 : this.languages.of(view.language);
    this.mode[row] = this.modes.of(view.mode);
    for (const category of view.categories) {
      if (this.categoryCount === this.categoryValues.length)
        this.categoryValues = grown(this.categoryValues, Math.ceil(this.categoryValues.length * 1.5));
      this.categoryValues[this.categoryCount++] = this.categories.of(category);
    }
    this.categoryStart[row + 1] = this.categoryCount;
    this.arena[row] = facts?.source === 'arena' ? 1 : 0;
    this.visitor[row] = facts ? this.visitors.of(facts.visitor) : -1;
    this.client[row] = facts?.client ? this.clients.of(facts.client) : -1;
    this.createdAtMs[row] = facts ? Date.parse(facts.createdAt) : Number.NaN;
    this.votedAfterMs[row] = facts?.votedAfterMs ?? Number.NaN;
    this.review[row] = facts?.review === 'count' ? REVIEW.count : facts?.review === 'exclude' ? REVIEW.exclude : REVIEW.none;
    this.size = row + 1;
  }

  get length(): number {
    return this.size;
  }

  finish(): VoteColumns {
    const n = this.size;
    return {
      length: n,
      models: this.models.names,
      languages: this.languages.names,
      modes: this.modes.names,
      categories: this.categories.names,
      modelA: this.modelA.subarray(0, n),
      modelB: this.modelB.subarray(0, n),
      choice: this.choice.subarray(0, n),
      baseFlags: this.baseFlags.subarray(0, n),
      hasStyle: this.hasStyle.subarray(0, n),
      style: this.style.subarray(0, n * 8),
      energy: this.energy.subarray(0, n * 4),
      language: this.language.subarray(0, n),
      mode: this.mode.subarray(0, n),
      categoryStart: this.categoryStart.subarray(0, n + 1),
      categoryValues: this.categoryValues.subarray(0, this.categoryCount),
      arena: this.arena.subarray(0, n),
      visitor: this.visitor.subarray(0, n),
      client: this.client.subarray(0, n),
      createdAtMs: this.createdAtMs.subarray(0, n),
      votedAfterMs: this.votedAfterMs.subarray(0, n),
      review: this.review.subarray(0, n),
    };
  }

  private grow(capacity: number): void {
    this.capacity = capacity;
    this.modelA = grown(this.modelA, capacity);
    this.modelB = grown(this.modelB, capacity);
    this.choice = grown(this.choice, capacity);
    this.baseFlags = grown(this.baseFlags, capacity);
    this.hasStyle = grown(this.hasStyle, capacity);
    this.style = grown(this.style, capacity * 8);
    this.energy = grown(this.energy, capacity * 4);
    this.language = grown(this.language, capacity);
    this.mode = grown(this.mode, capacity);
    this.categoryStart = grown(this.categoryStart, capacity + 1);
    this.arena = grown(this.arena, capacity);
    this.visitor = grown(this.visitor, capacity);
    this.client = grown(this.client, capacity);
    this.createdAtMs = grown(this.createdAtMs, capacity);
    this.votedAfterMs = grown(this.votedAfterMs, capacity);
    this.review = grown(this.review, capacity);
  }
}

/** The buffers of the columns, for a transfer to a worker (the sender loses them). */
export function voteColumnBuffers(columns: VoteColumns): ArrayBuffer[] {
  return [
    columns.modelA,
    columns.modelB,
    columns.choice,
    columns.baseFlags,
    columns.hasStyle,
    columns.style,
    columns.energy,
    columns.language,
    columns.mode,
    columns.categoryStart,
    columns.categoryValues,
    columns.arena,
    columns.visitor,
    columns.client,
    columns.createdAtMs,
    columns.votedAfterMs,
    columns.review,
  ].map((array) => array.buffer as ArrayBuffer);
}
