import type { DuelStatus, Reveal, Side, VoteRequest, VoteResponse } from '@agora/contract';
import { GroupCommit } from '../../db/group-commit';
import type { TurnSideSummary } from '../../db/repositories/duel.repository';
import type { SideRankingData, VoteRecord } from '../../db/repositories/feedback.repository';
import { answersOfCompletedTurns, checkVote } from '../../domain/arena/duel-rules';
import { AppError } from '../app-error';
import type { RecentVoteContexts } from '../recent-vote-contexts';
import { hashClientAddressGroup } from '../visitor-hashes';
import { isVisitorsDuel, requireDuel, throwIfConflict } from './duel-access';
import type { DuelServiceDependencies } from './duel-dependencies';
import { buildReveal } from './reveal';
import { failTurnIfLeaseLapsed } from './turn-lease';

/** Exactly one vote per duel, answered with the reveal once it is committed. */
export class DuelVotes {
  /**
   * Votes that arrive together are committed together (each still exactly once, each answered
   * after its commit), and their conversations queued for post-processing in the same transaction.
   */
  private readonly votes = new GroupCommit<VoteRecord, boolean>((records) => this.dependencies.store.duels.recordVotes(records));

  constructor(
    private readonly dependencies: DuelServiceDependencies,
    private readonly voteContexts: RecentVoteContexts,
  ) {}

  /** `clientAddress`: where the vote came from, kept as the hash of its group (IPv4 /24, IPv6 /56) for the integrity rules (bursts, stuffing from one address). */
  async vote(duelId: string, request: VoteRequest, visitorId: string, clientAddress: string, judgedAgain = false): Promise<VoteResponse> {
    const { store, runtime } = this.dependencies;
    // With several instances, another one may have run a follow-up since this one cached the context.
    const cached = this.dependencies.settings.severalInstances ? undefined : this.voteContexts.get(duelId);
    let context = cached ?? (await store.duels.findVoteContext(duelId));
    if (!context || !isVisitorsDuel(context.duel, visitorId)) throw new AppError('duel_not_found', 'no duel with this id');
    // A turn whose instance stopped is ended first: the vote is then answered as after any failed turn.
    if (await failTurnIfLeaseLapsed(this.dependencies, context.duel)) context = (await store.duels.findVoteContext(duelId)) ?? context;
    const { duel, sides: sideRecords } = context;
    throwIfConflict(checkVote({ status: duel.status as DuelStatus, turnCount: duel.turnCount }));
    const reveal = buildReveal(this.dependencies, duel, sideRecords);
    const now = runtime.now().toISOString();
    const clientHash = hashClientAddressGroup(clientAddress);
    const recorded = await this.votes.submit({
      duelId,
      choice: request.choice,
      modelA: duel.modelA,
      modelB: duel.modelB,
      tagsA: request.tags?.a ?? [],
      tagsB: request.tags?.b ?? [],
      commentA: request.comments?.a ?? null,
      commentB: request.comments?.b ?? null,
      identityLeak: sideRecords.some((record) => record.identityLeak),
      servedModelMismatch: sideRecords.some((record) => record.servedModelMismatch),
      mode: duel.mode,
      locale: duel.locale,
      createdAt: now,
      clientHash,
      ranking: { a: rankingData(sideRecords, 'a', reveal.a), b: rankingData(sideRecords, 'b', reveal.b) },
    });
    // Voted or refused, the duel is no longer waiting for its vote here.
    this.voteContexts.forget(duelId);
    if (!recorded) {
      const current = await requireDuel(store, duelId, visitorId);
      // The cached context was stale and the turn in the way lost its process: once that turn is ended, the vote is judged again.
      // Once only: a store whose duel and turn disagree for good must not make it retry forever.
      if (!judgedAgain && (await failTurnIfLeaseLapsed(this.dependencies, current)))
        return this.vote(duelId, request, visitorId, clientAddress, true);
      throwIfConflict(checkVote({ status: current.status as DuelStatus, turnCount: current.turnCount }) ?? 'already_voted');
    }
    this.dependencies.metrics.voteRecorded(request.choice);
    this.dependencies.onVoteRecorded?.(duelId);
    const judge = this.dependencies.judgeVote;
    const counted = judge ? await judge({ duelId, visitorHash: duel.visitorHash }) : true;
    return { reveal, counted };
  }
}

/** Style counts summed over a side's answers of completed turns, its output tokens and the energy shown on the reveal. */
function rankingData(sideRecords: readonly TurnSideSummary[], side: Side, reveal: Reveal): SideRankingData {
  const style = { len: 0, headers: 0, lists: 0, bold: 0 };
  for (const record of answersOfCompletedTurns(sideRecords)) {
    if (record.side !== side || !record.style) continue;
    style.len += record.style.len;
    style.headers += record.style.headers;
    style.lists += record.style.lists;
    style.bold += record.style.bold;
  }
  return { style, outputTokens: reveal.output_tokens, energyWh: reveal.impact?.energy_wh ?? null };
}
