/**
 * Vote integrity (docs/arena.md#vote-integrity): patterns that a person voting honestly does not
 * make, found over the whole vote history. A flagged vote is left out of the leaderboard until a
 * reviewer says to count it; a reviewer can also exclude any vote. Pure: the leaderboard and the
 * admin API both ask these rules.
 *
 * The rules are written once, over columns ({@link integrityRuleBits}): the live leaderboard judges
 * millions of votes with no object per vote. The object form ({@link integrityFlags}) numbers its
 * votes into the same columns and asks the same rules.
 */

import { type CampaignRule, DEFAULT_CAMPAIGN_RULE, campaignRows } from './campaign-rule';
import { type ClusterPushColumns, type ClusterPushRule, DEFAULT_CLUSTER_PUSH_RULE, clusterPushRows } from './cluster-push-rule';

export const INTEGRITY_FLAGS = [
  'too_fast',
  'one_sided',
  'address_burst',
  'favours_one_model',
  'excluded_by_reviewer',
  'beyond_influence_bound',
  'campaign',
  'cluster_push',
] as const;
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
  /**
   * Characters of the last turn's two answers, what the visitor had to read before voting, and
   * milliseconds from their first character on screen to the vote (null or absent when unknown).
   */
  shownChars?: number | null | undefined;
  votedAfterShownMs?: number | null | undefined;
  review: 'count' | 'exclude' | null;
  /** The near-duplicate cluster of the duel's prompts (null or absent: none yet), for cluster_push. */
  promptCluster?: string | null | undefined;
}

export interface IntegrityRules {
  /**
   * A vote sooner than this after the answers ended was not cast after reading them, whatever their
   * length: the floor of `too_fast`. 0 turns the whole rule off, {@link reading} included.
   */
  minVoteMs: number;
  /**
   * The reading part of `too_fast` (docs/arena.md#vote-integrity): a vote sooner after the answers'
   * first character appeared than a fast reader takes over their characters (`charsPerSecond`), at
   * most `maxMs`, was not cast after reading them. Absent: only the floor is judged.
   */
  reading?: ReadingRule | undefined;
  /** A visitor whose this-many votes or more all pick the same side (A, or B) votes by position. */
  oneSidedVotes: number;
  /** More votes than this from one address within any 60 seconds is a burst. */
  burstVotesPerMinute: number;
  /**
   * A visitor that picked the same model every time it appeared, this many times or more in a row,
   * favours it: those votes are flagged for good. Judged per visitor only: an address group holding
   * many people (a campus behind one NAT) sees a strong model win ten times in a row by chance, so
   * groups are judged against the board's prediction instead ({@link campaign}) and by {@link influence}.
   */
  favouriteVotes: number;
  /**
   * Bounded influence: past `votes` votes on one model by one address group, or by one visitor,
   * within any `windowMs`, further votes on that model do not count, whatever their direction.
   * Absent: no bound.
   */
  influence?: { votes: number; windowMs: number } | undefined;
  /** The campaign rule (campaign-rule.ts), judged when the board's ratings are passed in; absent: not judged. */
  campaign?: CampaignRule | undefined;
  /** The cluster-push rule (cluster-push-rule.ts); absent: not judged. */
  clusterPush?: ClusterPushRule | undefined;
}

/** How fast a visitor can read the answers (docs/arena.md#vote-integrity says where the numbers come from). */
export interface ReadingRule {
  charsPerSecond: number;
  maxMs: number;
}

/**
 * A fast reader skimming: 750 words a minute, the top of the skimming rates of Rayner et al. (2016),
 * about 3.2 times the average silent rate of 238 (Brysbaert 2019), on the 19 characters a second that
 * average rate is in characters; capped at 30 s, past which the rule says nothing (docs/arena.md).
 */
export const FAST_READER: ReadingRule = { charsPerSecond: 60, maxMs: 30_000 };

/** The shortest time a fast reader needs, by {@link ReadingRule}, to read `chars` characters. */
export function readingMs(chars: number, rule: ReadingRule): number {
  return Math.min(rule.maxMs, (chars * 1000) / rule.charsPerSecond);
}

export const DEFAULT_INTEGRITY_RULES: IntegrityRules = {
  minVoteMs: 1000,
  reading: FAST_READER,
  oneSidedVotes: 10,
  burstVotesPerMinute: 60,
  favouriteVotes: 10,
  influence: { votes: 30, windowMs: 24 * 3600_000 },
  campaign: DEFAULT_CAMPAIGN_RULE,
  clusterPush: DEFAULT_CLUSTER_PUSH_RULE,
};

/** Bit of each flag in {@link integrityFlagBits}' answer (eight flags: a byte holds them), in {@link INTEGRITY_FLAGS} order. */
export const INTEGRITY_FLAG_BIT: Readonly<Record<IntegrityFlag, number>> = Object.fromEntries(
  INTEGRITY_FLAGS.map((name, index) => [name, 1 << index]),
) as Record<IntegrityFlag, number>;

/** Codes of {@link IntegrityColumns.choice}: the same numbers as the ranking's outcome codes (a wins, b wins, tie, both bad). */
export const CHOICE_CODE = { a: 0, b: 1, tie: 2, both_bad: 3 } as const;
/** Codes of {@link IntegrityColumns.review}. */
/** `erased`: its visitor erased the duel (the live columns keep the row until their next full read; docs/privacy.md#your-duels). */
export const REVIEW_CODE = { none: 0, count: 1, exclude: 2, erased: 3 } as const;

/** The integrity facts of many votes as columns (domain/ranking/vote-columns.ts). */
export interface IntegrityColumns extends Pick<ClusterPushColumns, 'promptCluster'> {
  length: number;
  /** 1: an arena vote, judged by the rules. */
  arena: Uint8Array;
  /** Dense numbers (0 … visitors - 1) on the arena's votes. */
  visitor: Int32Array;
  visitors: number;
  /** Dense numbers (0 … clients - 1), -1 when unknown. */
  client: Int32Array;
  clients: number;
  /** {@link CHOICE_CODE}: 0 a, 1 b, 2 tie, 3 both bad. */
  choice: Uint8Array;
  modelA: Int32Array | Uint16Array;
  modelB: Int32Array | Uint16Array;
  createdAtMs: Float64Array;
  /** NaN when unknown. */
  votedAfterMs: Float32Array | Float64Array;
  /** {@link VoteFacts.shownChars} and {@link VoteFacts.votedAfterShownMs}; NaN when unknown. */
  shownChars: Float32Array | Float64Array;
  votedAfterShownMs: Float32Array | Float64Array;
  /** {@link REVIEW_CODE}: 0 none, 1 count, 2 exclude. */
  review: Uint8Array;
}

/**
 * The flags of each arena vote that has any (reviewers' decisions not applied: see {@link rankingFlags}).
 * `ratings`: the board's rating of each model, for the campaign rule (not judged without them).
 */
export function integrityFlags(
  votes: readonly VoteFacts[],
  rules: IntegrityRules,
  ratings?: ReadonlyMap<string, number>,
): Map<string, IntegrityFlag[]> {
  const columns = integrityColumnsOf(votes);
  const ratingOf = ratings && Float64Array.from(columns.modelNames, (model) => ratings.get(model) ?? Number.NaN);
  const bits = integrityRuleBits(columns, rules, ratingOf);
  // By duel: a duel listed twice has the flags of both its rows.
  const byDuel = new Map<string, number>();
  votes.forEach((vote, row) => {
    if (bits[row] !== 0) byDuel.set(vote.duelId, (byDuel.get(vote.duelId) ?? 0) | bits[row]!);
  });
  return new Map([...byDuel].map(([duelId, flags]) => [duelId, flagsOfBits(flags)]));
}

/**
 * The flags that keep a vote out of the leaderboard once a reviewer has looked: none when they said
 * to count it, `excluded_by_reviewer` when they excluded it, else the rules' flags (in
 * {@link INTEGRITY_FLAGS} order).
 */
export function rankingFlags(review: VoteFacts['review'], flags: readonly IntegrityFlag[] | undefined): IntegrityFlag[] {
  const bits = (flags ?? []).reduce((sum, flag) => sum | INTEGRITY_FLAG_BIT[flag], 0);
  return flagsOfBits(reviewedBits(REVIEW_CODE[review ?? 'none'], bits));
}

/** {@link integrityRuleBits} then the reviewers' decisions ({@link rankingFlags}): what keeps each vote off the board. */
export function integrityFlagBits(votes: IntegrityColumns, rules: IntegrityRules, ratings?: Float64Array): Uint8Array {
  return withReviews(votes, integrityRuleBits(votes, rules, ratings));
}

/** Rule bits ({@link integrityRuleBits}) with the reviewers' decisions applied, in a new array. */
export function withReviews(votes: Pick<IntegrityColumns, 'length' | 'review'>, ruleBits: Uint8Array): Uint8Array {
  const bits = new Uint8Array(votes.length);
  for (let row = 0; row < votes.length; row++) bits[row] = reviewedBits(votes.review[row]!, ruleBits[row]!);
  return bits;
}

/**
 * A reviewer's decision ({@link REVIEW_CODE}) on a vote's rule bits: count clears them, exclude replaces
 * them. An erased vote is kept out the same way: no flag is ever shown for it, since its duel is gone.
 */
function reviewedBits(review: number, bits: number): number {
  if (review === REVIEW_CODE.count) return 0;
  if (review === REVIEW_CODE.exclude || review === REVIEW_CODE.erased) return INTEGRITY_FLAG_BIT.excluded_by_reviewer;
  return bits;
}

/** The flags of {@link INTEGRITY_FLAG_BIT} bits, in {@link INTEGRITY_FLAGS} order. */
export function flagsOfBits(bits: number): IntegrityFlag[] {
  return INTEGRITY_FLAGS.filter((name) => (bits & INTEGRITY_FLAG_BIT[name]) !== 0);
}

/** Votes as {@link IntegrityColumns}: visitors, addresses and models numbered densely in order of appearance. */
function integrityColumnsOf(votes: readonly VoteFacts[]): IntegrityColumns & { modelNames: string[] } {
  const n = votes.length;
  const visitors = new Map<string, number>();
  const clients = new Map<string, number>();
  const models = new Map<string, number>();
  const clusters = new Map<string, number>();
  const numberOf = (numbers: Map<string, number>, name: string): number => {
    let found = numbers.get(name);
    if (found === undefined) numbers.set(name, (found = numbers.size));
    return found;
  };
  const columns = {
    length: n,
    arena: new Uint8Array(n),
    visitor: new Int32Array(n),
    client: new Int32Array(n),
    choice: new Uint8Array(n),
    modelA: new Int32Array(n),
    modelB: new Int32Array(n),
    createdAtMs: new Float64Array(n),
    votedAfterMs: new Float64Array(n),
    shownChars: new Float64Array(n),
    votedAfterShownMs: new Float64Array(n),
    review: new Uint8Array(n),
    promptCluster: new Int32Array(n),
  };
  votes.forEach((vote, row) => {
    const judged = vote.source === 'arena';
    columns.arena[row] = judged ? 1 : 0;
    columns.visitor[row] = judged ? numberOf(visitors, vote.visitor) : -1;
    columns.client[row] = judged && vote.client !== null ? numberOf(clients, vote.client) : -1;
    columns.choice[row] = CHOICE_CODE[vote.choice];
    columns.modelA[row] = numberOf(models, vote.modelA);
    columns.modelB[row] = numberOf(models, vote.modelB);
    columns.createdAtMs[row] = Date.parse(vote.createdAt);
    columns.votedAfterMs[row] = vote.votedAfterMs ?? Number.NaN;
    columns.shownChars[row] = vote.shownChars ?? Number.NaN;
    columns.votedAfterShownMs[row] = vote.votedAfterShownMs ?? Number.NaN;
    columns.review[row] = REVIEW_CODE[vote.review ?? 'none'];
    columns.promptCluster[row] = vote.promptCluster ? numberOf(clusters, vote.promptCluster) : -1;
  });
  return { ...columns, visitors: visitors.size, clients: clients.size, modelNames: [...models.keys()] };
}

/**
 * The rules' flags of each vote as bits of {@link INTEGRITY_FLAG_BIT}, over columns with no object
 * per vote (reviewers' decisions not applied: see {@link integrityFlagBits}).
 */
export function integrityRuleBits(votes: IntegrityColumns, rules: IntegrityRules, ratings?: Float64Array): Uint8Array {
  const bits = new Uint8Array(votes.length);
  let arenaCount = 0;
  for (let row = 0; row < votes.length; row++) {
    if (votes.arena[row] !== 1) continue;
    arenaCount++;
    if (votedTooFast(votes, row, rules)) bits[row]! |= INTEGRITY_FLAG_BIT.too_fast;
  }
  const byVisitor = groupRows(votes, votes.visitor, votes.visitors, arenaCount);
  const byClient = groupRows(votes, votes.client, votes.clients, arenaCount);
  for (const group of groupsOf(byVisitor)) oneSidedRows(votes, group, rules.oneSidedVotes, bits);
  for (const group of groupsOf(byVisitor)) favouringRows(votes, group, rules.favouriteVotes, bits);
  for (const group of groupsOf(byClient)) burstRows(votes, group, rules.burstVotesPerMinute, bits);
  if (rules.influence)
    for (const grouped of [byVisitor, byClient]) for (const group of groupsOf(grouped)) boundedRows(votes, group, rules.influence, bits);
  if (rules.campaign && ratings) for (const row of campaignRows(votes, ratings, rules.campaign)) bits[row]! |= INTEGRITY_FLAG_BIT.campaign;
  if (rules.clusterPush) for (const row of clusterPushRows(votes, rules.clusterPush)) bits[row]! |= INTEGRITY_FLAG_BIT.cluster_push;
  return bits;
}

/**
 * `too_fast`: the vote came sooner than the floor after the answers ended, or sooner after their
 * first character appeared than a fast reader reads them (the time they streamed counts as
 * reading). An unknown time is never too fast.
 */
function votedTooFast(votes: IntegrityColumns, row: number, rules: IntegrityRules): boolean {
  if (rules.minVoteMs <= 0) return false;
  const after = votes.votedAfterMs[row]!;
  if (after < rules.minVoteMs) return true;
  const chars = votes.shownChars[row]!;
  const sinceShown = votes.votedAfterShownMs[row]!;
  return rules.reading !== undefined && sinceShown < readingMs(chars, rules.reading);
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

/** A visitor's votes when there are at least `threshold` of them and all pick the same side (A, or B). */
function oneSidedRows(votes: IntegrityColumns, group: Int32Array, threshold: number, bits: Uint8Array): void {
  if (group.length < threshold) return;
  const first = votes.choice[group[0]!]!;
  if ((first === CHOICE_CODE.a || first === CHOICE_CODE.b) && group.every((row) => votes.choice[row] === first))
    for (const row of group) bits[row]! |= INTEGRITY_FLAG_BIT.one_sided;
}

/**
 * The votes of a visitor in each run of at least `threshold` votes, in time order, where the visitor
 * picked the same model every time it appeared. A contrary vote, a tie or a both-bad ends a run but
 * never clears it: votes flagged once stay flagged, whatever the group votes next (five contrary
 * votes used to clear 132 earlier ones).
 */
function favouringRows(votes: IntegrityColumns, group: Int32Array, threshold: number, bits: Uint8Array): void {
  const byModel = new Map<number, number[]>();
  for (const row of inTimeOrder(votes, group)) {
    for (const model of [votes.modelA[row]!, votes.modelB[row]!]) {
      const rows = byModel.get(model);
      if (rows) rows.push(row);
      else byModel.set(model, [row]);
    }
  }
  for (const [model, rows] of byModel) {
    if (rows.length < threshold) continue;
    let runStart = 0;
    for (let index = 0; index <= rows.length; index++) {
      if (index < rows.length && pickedModel(votes, rows[index]!, model)) continue;
      if (index - runStart >= threshold)
        for (let inRun = runStart; inRun < index; inRun++) bits[rows[inRun]!]! |= INTEGRITY_FLAG_BIT.favours_one_model;
      runStart = index + 1;
    }
  }
}

/** Whether a vote picked `model` (it won the vote). */
function pickedModel(votes: IntegrityColumns, row: number, model: number): boolean {
  return (
    (votes.choice[row] === CHOICE_CODE.a && votes.modelA[row] === model) ||
    (votes.choice[row] === CHOICE_CODE.b && votes.modelB[row] === model)
  );
}

/** A group's rows sorted by time; votes of the same millisecond keep their order. */
function inTimeOrder(votes: IntegrityColumns, group: Int32Array): number[] {
  return [...group].sort((left, right) => votes.createdAtMs[left]! - votes.createdAtMs[right]!);
}

/** The votes that fall in a 60-second window holding more than `limit` votes of the group. */
function burstRows(votes: IntegrityColumns, group: Int32Array, limit: number, bits: Uint8Array): void {
  const sorted = inTimeOrder(votes, group);
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (votes.createdAtMs[sorted[end]!]! - votes.createdAtMs[sorted[start]!]! >= 60_000) start++;
    if (end - start + 1 > limit) for (let index = start; index <= end; index++) bits[sorted[index]!]! |= INTEGRITY_FLAG_BIT.address_burst;
  }
}

/**
 * The votes of a group on a model past the `votes`-th within any `windowMs`: however they vote,
 * one visitor or one address group moves a model by at most that many votes a window.
 */
function boundedRows(votes: IntegrityColumns, group: Int32Array, bound: { votes: number; windowMs: number }, bits: Uint8Array): void {
  const byModel = new Map<number, number[]>();
  for (const row of inTimeOrder(votes, group)) {
    for (const model of new Set([votes.modelA[row]!, votes.modelB[row]!])) {
      const rows = byModel.get(model);
      if (rows) rows.push(row);
      else byModel.set(model, [row]);
    }
  }
  for (const rows of byModel.values()) {
    if (rows.length <= bound.votes) continue;
    let start = 0;
    for (let end = 0; end < rows.length; end++) {
      while (votes.createdAtMs[rows[end]!]! - votes.createdAtMs[rows[start]!]! >= bound.windowMs) start++;
      if (end - start + 1 > bound.votes) bits[rows[end]!]! |= INTEGRITY_FLAG_BIT.beyond_influence_bound;
    }
  }
}
