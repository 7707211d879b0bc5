import { CHOICE_CODE, REVIEW_CODE, type VoteFacts } from '../arena/vote-integrity';
import { DenseIds64, hash64 } from './dense-ids';
import type { ArenaVote } from './arena-matches';
import { styleCountsInOrder } from './vote-table';
import { Column, Interner, MAX_COLUMN_VOTES } from './shared-columns';
import { STATE_COLUMNS, type StateColumnName, type StateColumns, type VoteColumnsState, checkState } from './vote-columns-state';

/*
 * The live leaderboard's votes as typed columns: what a refresh needs of each vote (models, choice,
 * flags, style counts, the view keys, the integrity facts) in about eighty bytes, where the same
 * votes as objects took kilobytes. The server keeps them between refreshes: loaded once with a
 * streaming read, then updated with what changed in the store (services/leaderboard.service.ts).
 *
 * Every column lives in a growable SharedArrayBuffer: growing it never copies (pages are touched
 * only as votes are written, so the resident size follows the votes, not the reservation), and the
 * ranking worker reads the same memory without a copy or a transfer. Nothing writes the columns
 * while the worker reads them: refreshes run one at a time, and a refresh applies its changes
 * before it hands the columns over.
 */

/** A vote reduced to what the views select and rank by: what the kept columns below take of it. */
export interface ViewVote {
  vote: ArenaVote & { energy?: { a: { min: number; max: number } | null; b: { min: number; max: number } | null } };
  language: string | null;
  mode: string;
  /** Topic categories of the conversation, once post-processing tagged it. */
  categories: string[];
  /** Near-duplicate cluster of its first prompt (docs/ranking.md#duplicate-prompts); none before post-processing. */
  promptCluster?: string | null | undefined;
}

/** A vote as the columns take it: the view vote, and the facts of the integrity rules (arena votes; none for reaction matches). */
export interface VoteColumnsInput {
  view: ViewVote;
  facts?: VoteFacts | undefined;
}

/** Bits of {@link VoteColumns.baseFlags}: the flags a vote carries from the store. */
export const BASE_FLAG = { identity_leak: 1, served_model_mismatch: 2 } as const;
/** Categories with an index below this are bits of {@link VoteColumns.categoryMask}; the rest, rare, are in its overflow. */
const MASK_CATEGORIES = 32;

/** A read-only view of the columns (typed arrays of exactly `length` votes and name lists; shareable with a worker). */
export interface VoteColumns {
  length: number;
  models: string[];
  languages: string[];
  modes: string[];
  categories: string[];
  /** Index in {@link models}. */
  modelA: Uint16Array;
  modelB: Uint16Array;
  /** 0 a, 1 b, 2 tie, 3 both bad. */
  choice: Uint8Array;
  baseFlags: Uint8Array;
  /** 1 when the vote has style counts (then 8 of them in {@link style}). */
  hasStyle: Uint8Array;
  /** len_a, len_b, headers_a, headers_b, lists_a, lists_b, bold_a, bold_b per vote (the vote table's order); 32-bit once a count passes 65,535. */
  style: Uint16Array | Uint32Array;
  /** Index in {@link languages}, -1 when none. */
  language: Int16Array;
  mode: Int16Array;
  /** Bit i: the vote's conversation is on categories[i], for i < 32. */
  categoryMask: Uint32Array;
  /** Category indices from 32 on, by row (only rows that have some). */
  categoryOverflow: Map<number, number[]>;
  /** Integrity facts. `arena`: judged by the rules (the arena's own votes); the rest only matter for them. */
  arena: Uint8Array;
  /** Dense number of the visitor (0 … visitors - 1), -1 for votes the rules do not judge. */
  visitor: Int32Array;
  visitors: number;
  /** Dense number of the client address, -1 when unknown or not judged. */
  client: Int32Array;
  clients: number;
  createdAtMs: Float64Array;
  /** NaN when unknown. Milliseconds below 2²⁴ are exact, far beyond any rule's threshold. */
  votedAfterMs: Float32Array;
  /** Characters of the last turn's answers, and milliseconds from their first character to the vote; NaN when unknown. */
  shownChars: Float32Array;
  votedAfterShownMs: Float32Array;
  review: Uint8Array;
  /** Dense number of the vote's prompt cluster, -1 when none. */
  promptCluster: Int32Array;
  promptClusters: number;
}

/** Whether a vote is on category `category` (an index in {@link VoteColumns.categories}). */
export function hasCategory(columns: VoteColumns, row: number, category: number): boolean {
  if (category < 0) return false;
  if (category < MASK_CATEGORIES) return (columns.categoryMask[row]! & (1 << category)) !== 0;
  return columns.categoryOverflow.get(row)?.includes(category) ?? false;
}

/** The category indices of a vote. */
export function categoriesOf(columns: VoteColumns, row: number): number[] {
  const found: number[] = [];
  for (let mask = columns.categoryMask[row]!, bit = 0; mask !== 0; mask >>>= 1, bit++) if (mask & 1) found.push(bit);
  return [...found, ...(columns.categoryOverflow.get(row) ?? [])];
}

/**
 * The columns, kept and updated in place. A keyed vote (its duel id) is added once and updated in
 * place when it comes again (its conversation was annotated, a reviewer decided): the row of the
 * n-th key is row n. Unkeyed votes (reaction matches) come after every keyed one.
 */
export class RankingVoteColumns {
  private size = 0;
  private unkeyed = 0;
  private erasedRows = 0;
  private readonly models = new Interner(0xffff);
  private readonly languages = new Interner(0x7fff);
  private readonly modes = new Interner(0x7fff);
  private readonly categories = new Interner();
  private readonly duels = new DenseIds64();
  private readonly visitors = new DenseIds64();
  private readonly clients = new DenseIds64();
  private readonly modelA = new Column(Uint16Array, 1);
  private readonly modelB = new Column(Uint16Array, 1);
  private readonly choice = new Column(Uint8Array, 1);
  private readonly baseFlags = new Column(Uint8Array, 1);
  private readonly hasStyle = new Column(Uint8Array, 1);
  private style: Column<Uint16Array> | Column<Uint32Array> = new Column(Uint16Array, 8);
  private readonly language = new Column(Int16Array, 1);
  private readonly mode = new Column(Int16Array, 1);
  private readonly categoryMask = new Column(Uint32Array, 1);
  private readonly categoryOverflow = new Map<number, number[]>();
  private readonly arena = new Column(Uint8Array, 1);
  private readonly visitor = new Column(Int32Array, 1);
  private readonly client = new Column(Int32Array, 1);
  private readonly createdAtMs = new Column(Float64Array, 1);
  private readonly votedAfterMs = new Column(Float32Array, 1);
  private readonly shownChars = new Column(Float32Array, 1);
  private readonly votedAfterShownMs = new Column(Float32Array, 1);
  private readonly review = new Column(Uint8Array, 1);
  private readonly clusters = new DenseIds64();
  private readonly promptCluster = new Column(Int32Array, 1);
  /** Per model: sums of the revealed energy's bounds over its sides that have one, and their count (min, max, n). */
  private energySums = new Float64Array(3 * 64);

  get length(): number {
    return this.size;
  }

  /** Rows of erased votes ({@link erase}), counted nowhere. */
  get erased(): number {
    return this.erasedRows;
  }

  /** Whether the vote of a duel is in the columns. */
  has(key: string): boolean {
    const [hi, lo] = hash64(key);
    return this.duels.find(hi, lo) >= 0;
  }

  /**
   * Adds a vote, or, when its key is already here, writes its row again (everything but its
   * energy, which a vote never changes). Without a key, always adds.
   */
  put(input: VoteColumnsInput, key?: string): 'added' | 'updated' {
    // Everything that can refuse the vote comes before its key is numbered: a refused vote leaves no trace.
    const values = this.valuesOf(input);
    if (this.size === MAX_COLUMN_VOTES) throw new Error(`the live leaderboard holds at most ${MAX_COLUMN_VOTES} votes`);
    let row = this.size;
    if (key !== undefined) {
      if (this.unkeyed > 0) throw new Error('a keyed vote after an unkeyed one');
      const [hi, lo] = hash64(key);
      row = this.duels.idOf(hi, lo);
    } else this.unkeyed += 1;
    const added = row === this.size;
    if (added) this.reserve(row + 1);
    this.write(row, values);
    if (added) {
      this.addEnergy(input.view, values);
      this.size = row + 1;
    }
    return added ? 'added' : 'updated';
  }

  /** Takes an erased duel's vote out of the rules and the board (its row stays until the next full read); says whether it was here. */
  erase(key: string): boolean {
    const row = this.duels.find(...hash64(key));
    if (row < 0) return false;
    if (this.review.values[row] !== REVIEW_CODE.erased) this.erasedRows += 1;
    this.arena.values[row] = 0;
    this.visitor.values[row] = this.client.values[row] = -1;
    this.review.values[row] = REVIEW_CODE.erased;
    return true;
  }

  /** Keyed votes cast before `ms` (those whose time is unknown count as before). */
  countCastBefore(ms: number): number {
    const times = this.createdAtMs.view(this.size);
    let count = 0;
    for (let row = 0; row < times.length; row++) if (!(times[row]! >= ms)) count++;
    return count - this.unkeyed;
  }

  /** Mean revealed energy of each model's side of a duel, bound-wise, over every vote that has it. */
  meanEnergyByModel(): Map<string, { min: number; max: number }> {
    const means = new Map<string, { min: number; max: number }>();
    this.models.names.forEach((name, model) => {
      const n = this.energySums[model * 3 + 2]!;
      if (n > 0) means.set(name, { min: this.energySums[model * 3]! / n, max: this.energySums[model * 3 + 1]! / n });
    });
    return means;
  }

  /** The columns as they are now, sharing their memory (valid until the next {@link put}). */
  view(): VoteColumns {
    const n = this.size;
    return {
      length: n,
      models: [...this.models.names],
      languages: [...this.languages.names],
      modes: [...this.modes.names],
      categories: [...this.categories.names],
      modelA: this.modelA.view(n),
      modelB: this.modelB.view(n),
      choice: this.choice.view(n),
      baseFlags: this.baseFlags.view(n),
      hasStyle: this.hasStyle.view(n),
      style: this.style.view(n),
      language: this.language.view(n),
      mode: this.mode.view(n),
      categoryMask: this.categoryMask.view(n),
      categoryOverflow: new Map(this.categoryOverflow),
      arena: this.arena.view(n),
      visitor: this.visitor.view(n),
      visitors: this.visitors.size,
      client: this.client.view(n),
      clients: this.clients.size,
      createdAtMs: this.createdAtMs.view(n),
      votedAfterMs: this.votedAfterMs.view(n),
      shownChars: this.shownChars.view(n),
      votedAfterShownMs: this.votedAfterShownMs.view(n),
      review: this.review.view(n),
      promptCluster: this.promptCluster.view(n),
      promptClusters: this.clusters.size,
    };
  }

  /** Everything the columns hold, sharing their memory (valid until the next {@link put}): a snapshot's content. */
  toState(): VoteColumnsState {
    const byName = this.columnsByName();
    const columns = Object.fromEntries(STATE_COLUMNS.map(({ name }) => [name, byName[name].view(this.size)])) as unknown as StateColumns;
    return {
      counts: { size: this.size, unkeyed: this.unkeyed, erased: this.erasedRows },
      names: { models: this.models.names, languages: this.languages.names, modes: this.modes.names, categories: this.categories.names },
      keys: {
        duels: this.duels.keyHalves(),
        visitors: this.visitors.keyHalves(),
        clients: this.clients.keyHalves(),
        clusters: this.clusters.keyHalves(),
      },
      columns,
      categoryOverflow: [...this.categoryOverflow],
      energySums: this.energySums,
    };
  }

  /** Columns holding a state's votes (copied into their own memory); throws for a state that cannot be columns. */
  static fromState(state: VoteColumnsState): RankingVoteColumns {
    checkState(state);
    const restored = new RankingVoteColumns();
    const { names, keys, counts } = state;
    for (const [interner, list] of [
      [restored.models, names.models],
      [restored.languages, names.languages],
      [restored.modes, names.modes],
      [restored.categories, names.categories],
    ] as const)
      for (const name of list)
        if (interner.of(name) !== interner.names.length - 1) throw new Error('a name appears twice in a columns state');
    restored.duels.restore(keys.duels);
    restored.visitors.restore(keys.visitors);
    restored.clients.restore(keys.clients);
    restored.clusters.restore(keys.clusters);
    if (state.columns.style instanceof Uint32Array) restored.style = new Column(Uint32Array, 8);
    restored.reserve(counts.size);
    const byName = restored.columnsByName();
    for (const { name } of STATE_COLUMNS) byName[name].values.set(state.columns[name]);
    for (const [row, categories] of state.categoryOverflow) restored.categoryOverflow.set(row, [...categories]);
    restored.energySums = Float64Array.from(state.energySums);
    restored.size = counts.size;
    restored.unkeyed = counts.unkeyed;
    restored.erasedRows = counts.erased;
    return restored;
  }

  /** A vote's values as the columns store them, its names interned. Throws for a vote the columns cannot hold. */
  private valuesOf({ view, facts }: VoteColumnsInput) {
    const vote = view.vote;
    let flags = 0;
    for (const flag of vote.flags ?? []) {
      if (flag === 'identity_leak') flags |= BASE_FLAG.identity_leak;
      else if (flag === 'served_model_mismatch') flags |= BASE_FLAG.served_model_mismatch;
      else throw new Error(`a vote flag the columns do not hold: ${flag}`);
    }
    const style = vote.style ? styleCountsInOrder(vote.style) : null;
    let categoryMask = 0;
    const overflow: number[] = [];
    for (const category of view.categories) {
      const index = this.categories.of(category);
      if (index < MASK_CATEGORIES) categoryMask |= 1 << index;
      else if (!overflow.includes(index)) overflow.push(index);
    }
    const judged = facts?.source === 'arena';
    return {
      modelA: this.models.of(vote.modelA),
      modelB: this.models.of(vote.modelB),
      choice: CHOICE_CODE[vote.choice],
      flags,
      style,
      language: view.language === null ? -1 : this.languages.of(view.language),
      mode: this.modes.of(view.mode),
      categoryMask,
      overflow,
      arena: judged ? 1 : 0,
      visitor: judged ? this.visitors.idOf(...hash64(facts.visitor)) : -1,
      client: judged && facts.client ? this.clients.idOf(...hash64(facts.client)) : -1,
      createdAtMs: facts ? Date.parse(facts.createdAt) : Number.NaN,
      votedAfterMs: facts?.votedAfterMs ?? Number.NaN,
      shownChars: facts?.shownChars ?? Number.NaN,
      votedAfterShownMs: facts?.votedAfterShownMs ?? Number.NaN,
      review: REVIEW_CODE[facts?.review ?? 'none'],
      promptCluster: view.promptCluster ? this.clusters.idOf(...hash64(view.promptCluster)) : -1,
    };
  }

  private write(row: number, values: ReturnType<RankingVoteColumns['valuesOf']>): void {
    this.modelA.values[row] = values.modelA;
    this.modelB.values[row] = values.modelB;
    this.choice.values[row] = values.choice;
    this.baseFlags.values[row] = values.flags;
    if (values.style) {
      this.hasStyle.values[row] = 1;
      if (this.style.values instanceof Uint16Array && values.style.some((count) => count > 0xffff)) this.widenStyle();
      this.style.values.set(values.style, row * 8);
    } else {
      this.hasStyle.values[row] = 0;
      this.style.values.fill(0, row * 8, row * 8 + 8);
    }
    this.language.values[row] = values.language;
    this.mode.values[row] = values.mode;
    this.categoryMask.values[row] = values.categoryMask;
    if (values.overflow.length > 0) this.categoryOverflow.set(row, values.overflow);
    else this.categoryOverflow.delete(row);
    this.arena.values[row] = values.arena;
    this.visitor.values[row] = values.visitor;
    this.client.values[row] = values.client;
    this.createdAtMs.values[row] = values.createdAtMs;
    this.votedAfterMs.values[row] = values.votedAfterMs;
    this.shownChars.values[row] = values.shownChars;
    this.votedAfterShownMs.values[row] = values.votedAfterShownMs;
    this.review.values[row] = values.review;
    this.promptCluster.values[row] = values.promptCluster;
  }

  private addEnergy(view: ViewVote, values: { modelA: number; modelB: number }): void {
    const sides = [
      [values.modelA, view.vote.energy?.a],
      [values.modelB, view.vote.energy?.b],
    ] as const;
    for (const [model, energy] of sides) {
      if (!energy) continue;
      if (model * 3 + 3 > this.energySums.length) {
        const next = new Float64Array(Math.max(model * 3 + 3, this.energySums.length * 2));
        next.set(this.energySums);
        this.energySums = next;
      }
      this.energySums[model * 3]! += energy.min;
      this.energySums[model * 3 + 1]! += energy.max;
      this.energySums[model * 3 + 2]! += 1;
    }
  }

  private reserve(rows: number): void {
    for (const column of Object.values(this.columnsByName())) column.reserve(rows);
  }

  /** Each column by its name in a state (the class's fields of the same names). */
  private columnsByName(): { [Name in StateColumnName]: Column<StateColumns[Name]> } {
    return Object.fromEntries(STATE_COLUMNS.map(({ name }) => [name, this[name]])) as unknown as {
      [Name in StateColumnName]: Column<StateColumns[Name]>;
    };
  }

  /** A count past 65,535 (a very long answer): the style column goes to 32 bits, once. */
  private widenStyle(): void {
    const wide = new Column(Uint32Array, 8);
    wide.reserve(Math.max(this.size + 1, 1024));
    wide.values.set(this.style.view(this.size));
    this.style = wide;
  }
}
