import type { FlaggedVotes, IntegrityOverview, LeaderboardBody, VoteReviewRequest } from '@agora/contract';
import type { RankingVoteRecord } from '../db/repositories/feedback.repository';
import { voteFacts } from './vote-facts';
import type { Store } from '../db/unit-of-work';
import { AppError } from './app-error';
import type { Runtime } from './ports/runtime';
import {
  type IntegrityFlag,
  type IntegrityRules,
  type VoteFacts,
  flagsOfBits,
  integrityFlags,
  rankingFlags,
} from '../domain/arena/vote-integrity';
import { type IntegrityVerdicts, judgeStoredVotes, namedByDigests } from './vote-integrity-judgement';
import { FlaggedVoteGroups, HASH_SHOWN, flaggedVotesEffect } from './vote-integrity-overview';
import { nextTurnOfTheEventLoop } from './read-progress';

/** What the console's integrity page reads besides the votes: the main board's settings and the served-model discrepancies. */
export interface IntegrityOverviewSources {
  customModeOnMainBoard: boolean;
  /** False when the board does not group votes by prompt cluster (AGORA_LEADERBOARD_PROMPT_DEDUP=0). */
  promptDedup?: boolean | undefined;
  /** The live board, when this instance may compute it: its last refresh's judgement of every vote. */
  board?: {
    judgedStamp(): string | undefined;
    refresh(): Promise<unknown>;
    verdicts(): Promise<IntegrityVerdicts<[hi: number, lo: number]> | undefined>;
  };
  servedModels: (hours: number) => Promise<{ since: string; models: { model: string; served: string; answers: number }[] }>;
  /** The catalogue's provider of a model (its type) and the name it asks for; undefined for a model no longer in it. */
  providerOf: (modelId: string) => { provider: string; requested: string } | undefined;
}

/** The ratings of a board's ranked (not provisional) models: the prediction the campaign rule judges against. */
export function ratingsOfBoard(board: LeaderboardBody | undefined): ReadonlyMap<string, number> | undefined {
  return board && new Map(board.models.filter((row) => !row.provisional).map((row) => [row.model, row.rating]));
}

/**
 * The flags that keep each vote out of the leaderboard: the integrity rules' over the whole
 * history, then the reviewers' decisions. Votes without any are not in the map.
 */
export function integrityOfVotes(
  records: readonly RankingVoteRecord[],
  rules: IntegrityRules,
  ratings?: ReadonlyMap<string, number>,
): Map<string, IntegrityFlag[]> {
  const facts = records.map(voteFacts);
  const found = integrityFlags(facts, rules, ratings);
  const result = new Map<string, IntegrityFlag[]>();
  for (const vote of facts) {
    const flags = rankingFlags(vote.review, found.get(vote.duelId));
    if (flags.length > 0) result.set(vote.duelId, flags);
  }
  return result;
}

/**
 * Whether a vote just recorded counts in the ranking as far as can be judged now: its own flags
 * (identity leak, served-model mismatch), `too_fast` on its own times, and the visitor's rules
 * (one-sided, favouring a model, the visitor's influence bound) over the visitor's votes. The
 * address group's rules (bursts, the group's influence bound, the campaign rule) are judged at the
 * next refresh only: a group can hold thousands of votes a day, too many to read on every vote.
 */
export async function judgeRecordedVote(
  store: Store,
  rules: IntegrityRules,
  vote: { duelId: string; visitorHash: string },
): Promise<boolean> {
  const { vote: record, history } = await store.feedback.judgedVote(vote.duelId, vote.visitorHash);
  if (!record || record.identityLeak || record.servedModelMismatch) return false;
  const facts: VoteFacts[] = history.map((row) => ({
    duelId: row.duel_id,
    createdAt: row.created_at,
    source: row.source,
    visitor: vote.visitorHash,
    // No address: the address group's rules wait for the refresh.
    client: null,
    choice: row.choice as VoteFacts['choice'],
    modelA: row.model_a,
    modelB: row.model_b,
    votedAfterMs: null,
    review: null,
  }));
  const flags = integrityFlags([...facts, { ...voteFacts(record), client: null }], rules);
  return rankingFlags(record.review, flags.get(vote.duelId)).length === 0;
}

/** The admin's view of vote integrity: the votes the rules flag, and reviewers' decisions on them. */
export class VoteIntegrityService {
  private judgement: { stamp: string; votes: Promise<IntegrityVerdicts>; reading: boolean } | undefined;
  private groups: { of: IntegrityVerdicts; groups: Promise<FlaggedVoteGroups> } | undefined;

  constructor(
    private readonly store: Store,
    private readonly runtime: Pick<Runtime, 'now' | 'newId'>,
    private readonly rules: IntegrityRules,
    /** The latest main board's ratings, for the campaign rule (docs/arena.md#vote-integrity). */
    private readonly ratings: () => Promise<ReadonlyMap<string, number> | undefined> = () => Promise.resolve(undefined),
    private readonly sources: IntegrityOverviewSources = {
      customModeOnMainBoard: false,
      servedModels: () => Promise.resolve({ since: runtime.now().toISOString(), models: [] }),
      providerOf: () => undefined,
    },
  ) {}

  /**
   * The flagged votes (those the board leaves out: the rules' flags a reviewer did not clear, and
   * the votes a reviewer excluded) by rule, visitor and address, what counting them would move on
   * the main board, and the served-model discrepancies of the last `hours`.
   */
  async overview(query: { hours: number; limit: number }): Promise<IntegrityOverview> {
    const verdicts = await this.judged();
    const groups = await this.groupsOf(verdicts);
    const served = await this.sources.servedModels(query.hours);
    return {
      ...groups.result(query.limit),
      effect: flaggedVotesEffect(verdicts.counted, verdicts.withFlagged),
      served_models: {
        since: served.since,
        models: served.models.map((row) => {
          const provider = this.sources.providerOf(row.model);
          return { ...row, provider: provider?.provider ?? null, requested: provider?.requested ?? null };
        }),
      },
    };
  }

  /**
   * The duels whose votes no board counts by the integrity rules or a reviewer: judged over the whole
   * history against the stored main board's ratings, as `agora leaderboard` and the live board judge
   * them. The population board and the model sheets' tags leave them out too. Used only where the
   * live board's refresh has not judged them (composition/http-app.ts).
   */
  async flaggedDuels(): Promise<ReadonlySet<string>> {
    return new Set((await this.judged()).marked.flatMap((vote) => (vote.bits !== 0 ? [vote.duel] : [])));
  }

  /** The flagged votes' groups of a judgement, read once (who cast them: a batch of votes at a time). */
  private groupsOf(verdicts: IntegrityVerdicts): Promise<FlaggedVoteGroups> {
    if (this.groups?.of === verdicts) return this.groups.groups;
    const read = async () => {
      const flagsOf = new Map(verdicts.marked.flatMap((vote) => (vote.bits !== 0 ? [[vote.duel, flagsOfBits(vote.bits)] as const] : [])));
      const groups = new FlaggedVoteGroups();
      for await (const owners of this.store.feedback.voteOwnerPages([...flagsOf.keys()])) {
        for (const owner of owners) groups.add(owner, flagsOf.get(owner.duelId)!);
        await nextTurnOfTheEventLoop();
      }
      return groups;
    };
    const groups = read();
    this.groups = { of: verdicts, groups };
    groups.catch(() => this.groups?.groups === groups && (this.groups = undefined));
    return groups;
  }

  /** Votes the rules flag or a reviewer decided on, newest first, with what a reviewer needs to decide. */
  async flagged(limit: number): Promise<FlaggedVotes> {
    const newest = (await this.judged()).marked.slice(0, limit);
    const byDuel = new Map(
      (await this.store.feedback.rankingVotesOf(newest.map((vote) => vote.duel))).map((record) => [record.duelId, record]),
    );
    const listed = newest.flatMap((vote) => {
      const record = byDuel.get(vote.duel);
      // Listed when a rule flagged it or a reviewer decided on it (its current review is the record's).
      return record && (vote.ruleBits !== 0 || record.review !== null) ? [{ record, flags: flagsOfBits(vote.ruleBits) }] : [];
    });
    return {
      votes: listed.map(({ record, flags }) => ({
        duel_id: record.duelId,
        created_at: record.createdAt,
        choice: record.choice as FlaggedVotes['votes'][number]['choice'],
        model_a: record.modelA,
        model_b: record.modelB,
        flags,
        review: record.review,
        visitor: record.visitorHash.slice(0, HASH_SHOWN),
        address: record.clientHash?.slice(0, HASH_SHOWN) ?? null,
      })),
    };
  }

  /**
   * Every vote judged, kept while the votes, reviews and annotations stay as they were (a cheap stamp
   * of the store, read on each call), and shared by the pages that ask during a judgement: one at a
   * time.
   */
  private async judged(): Promise<IntegrityVerdicts> {
    if (this.judgement?.reading) return this.judgement.votes;
    const stamp = await this.store.feedback.rankingChangeStamp();
    if (this.judgement?.stamp === stamp) return this.judgement.votes;
    const votes = this.judge(stamp);
    const judgement = { stamp, votes, reading: true };
    this.judgement = judgement;
    // A failed judgement is not kept: the next call tries again.
    votes.then(
      () => (judgement.reading = false),
      () => this.judgement === judgement && (this.judgement = undefined),
    );
    return votes;
  }

  /**
   * The live board's judgement where this instance computes it, brought up to date first when the
   * store changed since its last refresh began (a refresh reads only what changed); else every vote read and judged here, in pages.
   */
  private async judge(stamp: string): Promise<IntegrityVerdicts> {
    const board = this.sources.board;
    const judged = board?.judgedStamp();
    if (board && judged !== undefined) {
      if (judged !== stamp) await board.refresh();
      const verdicts = await board.verdicts();
      if (verdicts) return namedByDigests(this.store, verdicts);
    }
    const { promptDedup, customModeOnMainBoard } = this.sources;
    return judgeStoredVotes(this.store, this.rules, await this.ratings(), { promptDedup, customModeOnMainBoard });
  }

  /** A reviewer's decision on a vote (`reviewer`: who is signed in, whatever the body says). */
  async review(duelId: string, request: VoteReviewRequest, reviewer: string): Promise<{ duel_id: string; decision: 'count' | 'exclude' }> {
    const recorded = await this.store.feedback.reviewVote({
      duelId,
      decision: request.decision,
      reviewer,
      reason: request.reason ?? null,
      at: this.runtime.now().toISOString(),
      auditId: this.runtime.newId(),
    });
    if (!recorded) throw new AppError('not_found', 'no vote on this duel');
    return { duel_id: duelId, decision: request.decision };
  }
}
