/**
 * Vote integrity (docs/arena.md#vote-integrity): patterns that a person voting honestly does not
 * make, found over the whole vote history. A flagged vote is left out of the leaderboard until a
 * reviewer says to count it; a reviewer can also exclude any vote. Pure: the leaderboard and the
 * admin API both ask these rules.
 */

export const INTEGRITY_FLAGS = ['too_fast', 'one_sided', 'address_burst', 'favours_one_model', 'excluded_by_reviewer'] as const;
export type IntegrityFlag = (typeof INTEGRITY_FLAGS)[number];

/** What the rules look at of one vote. */
export interface VoteFacts {
  duelId: string;
  createdAt: string;
  /** Only the arena's own votes are judged; imported ones were curated by their publisher. */
  source: string;
  /** Hash of the visitor, and of the client address (null when unknown). */
  visitor: string;
  client: string | null;
  choice: 'a' | 'b' | 'tie' | 'both_bad';
  modelA: string;
  modelB: string;
  /** Milliseconds from the end of the last turn to the vote (null when unknown). */
  votedAfterMs: number | null;
  review: 'count' | 'exclude' | null;
}

export interface IntegrityRules {
  /** A vote sooner than this after the answers ended was not cast after reading them. */
  minVoteMs: number;
  /** A visitor whose this-many votes or more all pick the same side (A, or B) votes by position. */
  oneSidedVotes: number;
  /** More votes than this from one address within any 60 seconds is a burst. */
  burstVotesPerMinute: number;
  /** A visitor or an address that picked the same model every time it appeared, this many times or more, favours it. */
  favouriteVotes: number;
}

export const DEFAULT_INTEGRITY_RULES: IntegrityRules = { minVoteMs: 2000, oneSidedVotes: 10, burstVotesPerMinute: 60, favouriteVotes: 10 };

/** The flags of each arena vote that has any (reviewers' decisions not applied: see {@link rankingFlags}). */
export function integrityFlags(votes: readonly VoteFacts[], rules: IntegrityRules): Map<string, IntegrityFlag[]> {
  const flags = new Map<string, Set<IntegrityFlag>>();
  const flag = (vote: VoteFacts, name: IntegrityFlag) => {
    const set = flags.get(vote.duelId) ?? new Set<IntegrityFlag>();
    set.add(name);
    flags.set(vote.duelId, set);
  };
  const arena = votes.filter((vote) => vote.source === 'arena');
  for (const vote of arena) if (vote.votedAfterMs !== null && vote.votedAfterMs < rules.minVoteMs) flag(vote, 'too_fast');

  const byVisitor = groupBy(arena, (vote) => vote.visitor);
  const byClient = groupBy(
    arena.filter((vote) => vote.client !== null),
    (vote) => vote.client!,
  );
  for (const group of byVisitor.values()) {
    if (group.length >= rules.oneSidedVotes && (group.every((vote) => vote.choice === 'a') || group.every((vote) => vote.choice === 'b')))
      for (const vote of group) flag(vote, 'one_sided');
  }
  for (const group of [...byVisitor.values(), ...byClient.values()])
    for (const vote of favouring(group, rules.favouriteVotes)) flag(vote, 'favours_one_model');
  for (const group of byClient.values()) for (const vote of inBursts(group, rules.burstVotesPerMinute)) flag(vote, 'address_burst');

  return new Map([...flags].map(([duelId, set]) => [duelId, INTEGRITY_FLAGS.filter((name) => set.has(name))]));
}

/**
 * The flags that keep a vote out of the leaderboard once a reviewer has looked: none when they said
 * to count it, `excluded_by_reviewer` when they excluded it, else the rules' flags.
 */
export function rankingFlags(review: VoteFacts['review'], flags: readonly IntegrityFlag[] | undefined): IntegrityFlag[] {
  if (review === 'count') return [];
  if (review === 'exclude') return ['excluded_by_reviewer'];
  return [...(flags ?? [])];
}

/** The votes of a group for a model that the group picked every time it appeared, at least `threshold` times. */
function favouring(group: readonly VoteFacts[], threshold: number): VoteFacts[] {
  const byModel = new Map<string, VoteFacts[]>();
  for (const vote of group) {
    for (const model of [vote.modelA, vote.modelB]) {
      const votes = byModel.get(model);
      if (votes) votes.push(vote);
      else byModel.set(model, [vote]);
    }
  }
  const favoured: VoteFacts[] = [];
  for (const [model, votes] of byModel) {
    if (votes.length < threshold) continue;
    const picked = votes.every((vote) => (vote.choice === 'a' && vote.modelA === model) || (vote.choice === 'b' && vote.modelB === model));
    if (picked) favoured.push(...votes);
  }
  return favoured;
}

/** The votes that fall in a 60-second window holding more than `limit` votes of the group. */
function inBursts(group: readonly VoteFacts[], limit: number): VoteFacts[] {
  const sorted = [...group].sort((left, right) => (left.createdAt < right.createdAt ? -1 : left.createdAt > right.createdAt ? 1 : 0));
  const times = sorted.map((vote) => Date.parse(vote.createdAt));
  const burst = new Set<number>();
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (times[end]! - times[start]! >= 60_000) start++;
    if (end - start + 1 > limit) for (let index = start; index <= end; index++) burst.add(index);
  }
  return [...burst].map((index) => sorted[index]!);
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  // Pushed in place: a school's address may hold many thousands of votes.
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/** Bit of each flag in {@link integrityFlagBits}' answer, in {@link INTEGRITY_FLAGS} order. */
export const INTEGRITY_FLAG_BIT: Readonly<Record<IntegrityFlag, number>> = Object.fromEntries(
  INTEGRITY_FLAGS.map((name, index) => [name, 1 << index]),
) as Record<IntegrityFlag, number>;

/** The integrity facts of many votes as columns (domain/ranking/vote-columns.ts). */
export interface IntegrityColumns {
  length: number;
  /** 1: an arena vote, judged by the rules. */
  arena: Uint8Array;
  /** Dense numbers (0 … visitors - 1) on the arena's votes. */
  visitor: Int32Array;
  visitors: number;
  /** Dense numbers (0 … clients - 1), -1 when unknown. */
  client: Int32Array;
  clients: number;
  /** 0 a, 1 b, 2 tie, 3 both bad. */
  choice: Uint8Array;
  modelA: Int32Array | Uint16Array;
  modelB: Int32Array | Uint16Array;
  createdAtMs: Float64Array;
  /** NaN when unknown. */
  votedAfterMs: Float32Array | Float64Array;
  /** 0 none, 1 count, 2 exclude. */
  review: Uint8Array;
}

/**
 * {@link integrityFlags} then {@link rankingFlags} over columns: each vote's flags as bits of
 * {@link INTEGRITY_FLAG_BIT}, with no object per vote. The same rules, the same answers (a test
 * compares them on random histories).
 */
export function integrityFlagBits(votes: IntegrityColumns, rules: IntegrityRules): Uint8Array {
  const bits = new Uint8Array(votes.length);
  let arenaCount = 0;
  for (let row = 0; row < votes.length; row++) {
    if (votes.arena[row] !== 1) continue;
    arenaCount++;
    const after = votes.votedAfterMs[row]!;
    if (!Number.isNaN(after) && after < rules.minVoteMs) bits[row]! |= INTEGRITY_FLAG_BIT.too_fast;
  }
  const byVisitor = groupRows(votes, votes.visitor, votes.visitors, arenaCount);
  const byClient = groupRows(votes, votes.client, votes.clients, arenaCount);
  for (const group of groupsOf(byVisitor)) {
    if (group.length < rules.oneSidedVotes) continue;
    const first = votes.choice[group[0]!]!;
    if ((first === 0 || first === 1) && group.every((row) => votes.choice[row] === first))
      for (const row of group) bits[row]! |= INTEGRITY_FLAG_BIT.one_sided;
  }
  for (const grouped of [byVisitor, byClient])
    for (const group of groupsOf(grouped)) favouringRows(votes, group, rules.favouriteVotes, bits);
  for (const group of groupsOf(byClient)) burstRows(votes, group, rules.burstVotesPerMinute, bits);
  for (let row = 0; row < votes.length; row++) {
    if (votes.review[row] === 1) bits[row] = 0;
    else if (votes.review[row] === 2) bits[row] = INTEGRITY_FLAG_BIT.excluded_by_reviewer;
  }
  return bits;
}

/** Rows grouped by key: group k is `rows[starts[k] .. starts[k + 1]]`. */
interface GroupedRows {
  rows: Int32Array;
  starts: Int32Array;
}

/**
 * The arena's rows grouped by a dense key column (0 … keys - 1; -1: in no group), rows in order:
 * a counting sort into one array, so that millions of votes make two typed arrays rather than an
 * array per visitor.
 */
function groupRows(votes: IntegrityColumns, key: Int32Array, keys: number, arenaCount: number): GroupedRows {
  const starts = new Int32Array(keys + 1);
  for (let row = 0; row < votes.length; row++) if (votes.arena[row] === 1 && key[row]! >= 0) starts[key[row]! + 1]!++;
  for (let index = 0; index < keys; index++) starts[index + 1]! += starts[index]!;
  const rows = new Int32Array(Math.min(arenaCount, starts[keys]!));
  const next = starts.slice(0, keys);
  for (let row = 0; row < votes.length; row++) if (votes.arena[row] === 1 && key[row]! >= 0) rows[next[key[row]!]!++] = row;
  return { rows, starts };
}

/** The non-empty groups, each a view of the rows. */
function* groupsOf({ rows, starts }: GroupedRows): Generator<Int32Array> {
  for (let index = 0; index + 1 < starts.length; index++)
    if (starts[index + 1]! > starts[index]!) yield rows.subarray(starts[index], starts[index + 1]);
}

/** {@link favouring} on rows: a model the group picked every time it appeared, at least `threshold` times. */
function favouringRows(votes: IntegrityColumns, group: Int32Array, threshold: number, bits: Uint8Array): void {
  const byModel = new Map<number, number[]>();
  for (const row of group) {
    for (const model of [votes.modelA[row]!, votes.modelB[row]!]) {
      const rows = byModel.get(model);
      if (rows) rows.push(row);
      else byModel.set(model, [row]);
    }
  }
  for (const [model, rows] of byModel) {
    if (rows.length < threshold) continue;
    const picked = rows.every(
      (row) => (votes.choice[row] === 0 && votes.modelA[row] === model) || (votes.choice[row] === 1 && votes.modelB[row] === model),
    );
    if (picked) for (const row of rows) bits[row]! |= INTEGRITY_FLAG_BIT.favours_one_model;
  }
}

/** {@link inBursts} on rows: the votes in a 60-second window holding more than `limit` votes of the group. */
function burstRows(votes: IntegrityColumns, group: Int32Array, limit: number, bits: Uint8Array): void {
  // A stable sort by time, as the object rules sort by their ISO-8601 text.
  const sorted = [...group].sort((left, right) => votes.createdAtMs[left]! - votes.createdAtMs[right]!);
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (votes.createdAtMs[sorted[end]!]! - votes.createdAtMs[sorted[start]!]! >= 60_000) start++;
    if (end - start + 1 > limit) for (let index = start; index <= end; index++) bits[sorted[index]!]! |= INTEGRITY_FLAG_BIT.address_burst;
  }
}
