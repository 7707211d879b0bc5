import type { Store } from '../db/unit-of-work';
import { type IntegrityRules, REVIEW_CODE, integrityRuleBits, withReviews } from '../domain/arena/vote-integrity';
import type { Leaderboard } from '../domain/ranking';
import { DenseIds64, hash64 } from '../domain/ranking/dense-ids';
import { DuelDigestSet } from '../domain/ranking/duel-digest-set';
import { OWN_VIEW_MODES, computeViewsFromColumns, countedVotes, toViewVote, viewKey } from '../domain/ranking/leaderboard-views';
import { firstVotePerVisitorCluster, withoutPromptClusters } from '../domain/ranking/prompt-cluster-cap';
import { RankingVoteColumns, type VoteColumns } from '../domain/ranking/vote-columns';
import { nextTurnOfTheEventLoop } from './read-progress';
import { voteFacts } from './vote-facts';

/** Votes read per page: the reader holds one page of objects at a time, whatever the number of votes. */
const VOTE_PAGE = 5_000;
/** Duel ids read per page when naming the live board's rows. */
const ID_PAGE = 20_000;

/** Every vote judged by the integrity rules over the whole history, as columns (the live board's, or read for the console). */
export interface VoteJudgement {
  columns: VoteColumns;
  /** The rules' flags ({@link integrityRuleBits}), before the reviewers' decisions. */
  ruleBits: Uint8Array;
  /** What keeps each vote off the board: the rules' flags a reviewer did not clear, or the reviewer's exclusion. */
  bits: Uint8Array;
  /** The modes whose votes count only in their own view (OWN_VIEW_MODES, or none). */
  ownViewModes: readonly string[];
}

/** A vote the console shows: flagged by a rule, decided on by a reviewer, or kept off the board. */
export interface MarkedVote<Name = string> {
  duel: Name;
  createdAtMs: number;
  ruleBits: number;
  bits: number;
}

/** What the console's integrity pages read of a judgement: the marked votes, newest first, and the main board with and without the flagged ones. */
export interface IntegrityVerdicts<Name = string> {
  marked: MarkedVote<Name>[];
  counted: Leaderboard;
  withFlagged: Leaderboard;
}

/**
 * The marked votes of a judgement (named by `nameOf`; a row without a name is left out) and the
 * main board's plain view fitted as the live leaderboard fits it (one vote per visitor and prompt
 * cluster, clusters' weight capped, own-view modes left out), once as counted and once with the
 * flagged votes counted too (identity leaks and served-model mismatches still left out).
 */
export function verdictsOf<Name>(judged: VoteJudgement, nameOf: (row: number) => Name | undefined): IntegrityVerdicts<Name> {
  const { columns, ruleBits, bits } = judged;
  const marked: MarkedVote<Name>[] = [];
  for (let row = 0; row < columns.length; row++) {
    if (ruleBits[row] === 0 && bits[row] === 0 && columns.review[row] === REVIEW_CODE.none) continue;
    const duel = nameOf(row);
    if (duel !== undefined) marked.push({ duel, createdAtMs: columns.createdAtMs[row]!, ruleBits: ruleBits[row]!, bits: bits[row]! });
  }
  const key = viewKey({ style: 'plain' });
  const main = [{ key, style: 'plain' as const, language: null, mode: null, category: null, ownViewModes: judged.ownViewModes }];
  const fit = (keptOut: Uint8Array) =>
    computeViewsFromColumns(columns, firstVotePerVisitorCluster(columns, countedVotes(columns, keptOut)), main).get(key)!;
  const counted = fit(bits);
  // Nothing flagged: the same board twice (a fit of a few million votes spared).
  return { marked, counted, withFlagged: bits.some((flags) => flags !== 0) ? fit(new Uint8Array(columns.length)) : counted };
}

/** A refresh's judgement of the live board's kept votes; its rows are named by the columns' duel digests. */
export class BoardJudgement implements VoteJudgement {
  /** The duels the board leaves out. */
  readonly flagged: DuelDigestSet;

  constructor(
    readonly columns: VoteColumns,
    readonly ruleBits: Uint8Array,
    readonly bits: Uint8Array,
    readonly ownViewModes: readonly string[],
    private readonly kept: Pick<RankingVoteColumns, 'toState'>,
    /** The store's change stamp as the refresh began (`rankingChangeStamp`). */
    readonly stamp: string,
  ) {
    this.flagged = DuelDigestSet.ofMarkedRows(kept.toState().keys.duels, bits);
  }

  /** The verdicts, rows named by their duels' digests: call between refreshes (the kept columns change during one). */
  verdicts(): IntegrityVerdicts<[hi: number, lo: number]> {
    const keys = this.kept.toState().keys.duels;
    // Rows past the keys are unkeyed votes (reaction matches): no duel to name.
    return verdictsOf(this, (row): [number, number] | undefined =>
      2 * row < keys.length ? [keys[2 * row]!, keys[2 * row + 1]!] : undefined,
    );
  }
}

/** Newest first; on a tie, the greater duel id first. */
function newestFirst(marked: MarkedVote[]): MarkedVote[] {
  return marked.sort((left, right) => right.createdAtMs - left.createdAtMs || (right.duel < left.duel ? -1 : 1));
}

/**
 * Every stored vote judged as the live board judges it, read a page at a time into the board's own
 * columns (about seventy bytes a vote, plus its duel id), never as one array of objects: reading
 * them as objects cost 14 s of CPU and 1 GB on 250,000 votes with the event loop stopped
 * throughout, and would pass Node's heap at a few million. For an instance that does not compute
 * the board.
 */
export async function judgeStoredVotes(
  store: Store,
  rules: IntegrityRules,
  ratings: ReadonlyMap<string, number> | undefined,
  options: { promptDedup?: boolean | undefined; customModeOnMainBoard?: boolean | undefined },
): Promise<IntegrityVerdicts> {
  const kept = new RankingVoteColumns();
  const duelIds: string[] = [];
  for await (const page of store.feedback.rankingVotePages(VOTE_PAGE)) {
    for (const record of page)
      if (kept.put({ view: toViewVote(record), facts: voteFacts(record) }, record.duelId) === 'added') duelIds.push(record.duelId);
    await nextTurnOfTheEventLoop();
  }
  const columns = options.promptDedup === false ? withoutPromptClusters(kept.view()) : kept.view();
  const ratingOf = ratings && Float64Array.from(columns.models, (model) => ratings.get(model) ?? Number.NaN);
  const ruleBits = integrityRuleBits(columns, rules, ratingOf);
  const ownViewModes = options.customModeOnMainBoard ? [] : OWN_VIEW_MODES;
  const verdicts = verdictsOf({ columns, ruleBits, bits: withReviews(columns, ruleBits), ownViewModes }, (row) => duelIds[row]);
  return { ...verdicts, marked: newestFirst(verdicts.marked) };
}

/**
 * The live board's verdicts, its rows named by their duels' 64-bit digests, with the duel ids: the
 * store's ids read alone (no join, a page at a time) and hashed, kept when their digest is marked.
 * A vote deleted since the board's refresh is left out.
 */
export async function namedByDigests(store: Store, verdicts: IntegrityVerdicts<[hi: number, lo: number]>): Promise<IntegrityVerdicts> {
  if (verdicts.marked.length === 0) return { ...verdicts, marked: [] };
  const digests = new DenseIds64();
  for (const vote of verdicts.marked) digests.idOf(vote.duel[0], vote.duel[1]);
  const names: (string | undefined)[] = new Array<string | undefined>(digests.size);
  for await (const ids of store.feedback.duelIdPages(ID_PAGE)) {
    for (const id of ids) {
      const found = digests.find(...hash64(id));
      if (found >= 0) names[found] = id;
    }
    await nextTurnOfTheEventLoop();
  }
  const marked = verdicts.marked.flatMap((vote) => {
    const duel = names[digests.find(vote.duel[0], vote.duel[1])];
    return duel === undefined ? [] : [{ ...vote, duel }];
  });
  return { ...verdicts, marked: newestFirst(marked) };
}
