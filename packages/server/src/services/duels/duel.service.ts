import { hashClientAddress, hashVisitor } from '../visitor-hashes';
import type {
  CreateDuelRequest,
  DuelStatus,
  Reaction,
  ReactionRequest,
  Reveal,
  Side,
  StreamEvent,
  Transcript,
  VoteRequest,
  VoteResponse,
} from '@agora/contract';
import {
  answersOfCompletedTurns,
  checkFollowUp,
  checkReaction,
  checkVote,
  duelStatusAfterTurn,
  type DuelConflict,
  type TurnStatus,
} from '../../domain/arena/duel-rules';
import { drawDuel, type PairingCandidate } from '../../domain/arena/pairing';
import type { DuelRecord, FinishedTurn, TurnSideRecord, TurnSideSummary } from '../../db/repositories/duel.repository';
import type { SideRankingData, VoteRecord } from '../../db/repositories/feedback.repository';
import type { Store } from '../../db/unit-of-work';
import type { ModelRegistry } from '../../providers/registry';
import { AppError } from '../app-error';
import type { ArenaCatalogue } from '../arena-catalogue';
import type { ArenaMetrics } from '../arena-metrics';
import type { PairingPolicy } from '../pairing-policy';
import { type ProofOfWork, requireProof } from '../proof-of-work';
import { rateLimitedError, type RequestLimiter, type Requester } from '../rate-limits';
import { RecentVoteContexts } from '../recent-vote-contexts';
import { GroupCommit } from '../../db/group-commit';
import type { RevealImpactEstimator } from '../reveal-impact';
import type { Runtime } from '../runtime';
import { type SideOutcome, type TurnOutcome, type TurnPlan, type UpstreamLogEntry, runTurn } from './turn-runner';
import { TurnStream } from './turn-stream';

export interface DuelServiceDependencies {
  store: Store;
  catalogue: ArenaCatalogue;
  registry: ModelRegistry;
  metrics: ArenaMetrics;
  runtime: Runtime;
  settings: {
    maxTurns: number;
    upstreamRetries: number;
    replayTtlMs: number;
    /** Longer than any turn can last (every attempt of the slowest model, and a margin): a turn still streaming after it was cut by a crash. */
    turnDeadlineMs: number;
    /**
     * Several instances share the store (docs/decisions/0005-several-instances.md): live frames go
     * through the store so that any instance can stream any turn, and vote contexts are read from
     * the store, never from this process's memory.
     */
    severalInstances?: boolean;
  };
  onTurnStored?: (duelId: string, status: 'complete' | 'failed') => void;
  onVoteRecorded?: (duelId: string) => void;
  estimateImpact?: RevealImpactEstimator;
  /** Pair weights for the draw; uniform without it. */
  pairing?: PairingPolicy;
  /** Counts the characters each requester sends to models marked `expensive`; no such limit without it. */
  limiter?: RequestLimiter;
  /** Asks for a solved challenge before each new duel; none without it. */
  proofOfWork?: ProofOfWork;
  logError: (message: string, error: unknown) => void;
  logUpstream?: (entry: UpstreamLogEntry) => void;
}

const conflictMessages: Record<DuelConflict, string> = {
  already_voted: 'this duel has already been voted on',
  duel_failed: 'a turn of this duel failed: it can be neither continued nor voted on',
  turn_in_progress: 'a turn is still streaming',
  turn_limit_reached: 'this duel has reached its maximum number of turns',
};

const sides: readonly Side[] = ['a', 'b'];

/** What a failed turn's replay leaves out: both sides' answers. */
const WITHHELD_FROM_FAILED_TURNS = new Set<StreamEvent['type']>(['text-delta', 'reasoning-delta', 'side-end']);

const EXPENSIVE_LIMIT_MESSAGE = 'too many characters sent to costly models for now';

/**
 * The duel lifecycle: draw two anonymous models, run turns in the background, take reactions and
 * exactly one vote, then reveal. Generation is decoupled from HTTP: turns run here and write to a
 * {@link TurnStream} that any number of connections follow.
 */
export class DuelService {
  private readonly live = new Map<string, TurnStream>();
  /** Duels whose turn ended here, ready for their vote without a read of the store. */
  private readonly voteContexts = new RecentVoteContexts(10_000);
  private readonly running = new Set<Promise<void>>();
  /**
   * Votes that arrive together are committed together (each still exactly once, each answered
   * after its commit), and their conversations queued for post-processing in the same transaction.
   */
  private readonly votes = new GroupCommit<VoteRecord, boolean>((records) => this.dependencies.store.duels.recordVotes(records));

  constructor(private readonly dependencies: DuelServiceDependencies) {}

  /** `cohort`: the operator's campaign this duel belongs to (private cohorts stay out of exports). */
  async createDuel(request: CreateDuelRequest, requester: Requester, cohort: string | null = null): Promise<{ id: string; turn: number }> {
    const { catalogue, runtime, store } = this.dependencies;
    const visitorId = requester.visitorId;
    this.checkChosenModels(request.models);
    const { candidates, withoutExpensive } = await this.affordableCandidates(request, requester);
    const outcome = drawDuel(
      { mode: request.mode, chosen: request.models, pairWeight: this.dependencies.pairing?.pairWeight() },
      candidates,
      runtime.random,
    );
    if (!outcome.ok) {
      if (outcome.reason === 'unknown_models') throw new AppError('unknown_models', `unknown models: ${outcome.unknown.join(', ')}`);
      if (withoutExpensive) throw rateLimitedError(EXPENSIVE_LIMIT_MESSAGE, withoutExpensive.resetMs);
      throw new AppError(
        'no_models_available',
        `not enough models available for mode ${request.mode}${catalogue.setupHint() ? `: ${catalogue.setupHint()}` : ''}`,
      );
    }
    // The proof is spent only by a request that would start a duel: a refused one keeps it.
    if (this.dependencies.proofOfWork) await requireProof(this.dependencies.proofOfWork, request.proof);
    await this.spendOnExpensive([outcome.sides.a.modelId, outcome.sides.b.modelId], request.prompt.length, requester);
    const now = runtime.now().toISOString();
    const duel: DuelRecord = {
      id: runtime.newId(),
      visitorHash: hashVisitor(visitorId),
      cohort,
      mode: request.mode,
      modelA: outcome.sides.a.modelId,
      modelB: outcome.sides.b.modelId,
      chosenModels: request.models ?? null,
      locale: request.locale ?? null,
      status: 'streaming',
      turnCount: 1,
      createdAt: now,
    };
    // One commit for the duel and its first turn: both or neither. The models are called while it
    // commits, so that the first tokens do not wait for the store; the turn is stored only after the
    // duel is, and a duel that cannot be stored cancels its turn and fails the request.
    const committed = afterPendingTicks(() =>
      store.transaction((repositories) => repositories.duels.createWithFirstTurn(duel, request.prompt)),
    );
    const plan: TurnPlan = {
      turn: 1,
      prompt: request.prompt,
      sides: {
        a: { modelId: duel.modelA, history: [], replacementPool: this.uncharged(outcome.sides.a.replacementPool, duel) },
        b: { modelId: duel.modelB, history: [], replacementPool: this.uncharged(outcome.sides.b.replacementPool, duel) },
      },
    };
    const cancel = new AbortController();
    const stream = this.startTurn(duel, plan, [], { committed, cancel: cancel.signal });
    try {
      await committed;
    } catch (error) {
      cancel.abort();
      this.forgetStream(streamKey(duel.id, 1), stream);
      throw error;
    }
    return { id: duel.id, turn: 1 };
  }

  /** A follow-up prompt, sent to both sides with each side's own history. */
  async followUp(duelId: string, prompt: string, requester: Requester): Promise<{ turn: number }> {
    const { store, runtime, settings } = this.dependencies;
    const duel = await this.requireDuel(duelId, requester.visitorId);
    this.throwIfConflict(checkFollowUp({ status: duel.status as DuelStatus, turnCount: duel.turnCount }, settings.maxTurns));
    const [turns, sideRecords] = await Promise.all([store.duels.listTurns(duelId), store.duels.listSides(duelId)]);
    // A failed turn was never shown: the models go on from the turns both completed.
    const history = (side: Side) =>
      turns.flatMap((past) => {
        if (past.status !== 'complete') return [];
        const answer = sideRecords.find((record) => record.turn === past.turn && record.side === side);
        return [
          { role: 'user' as const, content: past.prompt },
          { role: 'assistant' as const, content: answer?.text ?? '' },
        ];
      });
    // Each side is sent the whole conversation again: that is what a costly model is paid for.
    const sentChars = (side: Side) => history(side).reduce((sum, message) => sum + message.content.length, prompt.length);
    await this.spendOnExpensive([duel.modelA, duel.modelB], Math.max(sentChars('a'), sentChars('b')), requester);
    const turn = duel.turnCount + 1;
    this.voteContexts.forget(duelId);
    const started = await store.duels.startFollowUpTurn(duelId, {
      turn,
      prompt,
      status: 'streaming',
      errorCode: null,
      startedAt: runtime.now().toISOString(),
      endedAt: null,
    });
    if (!started) throw new AppError('turn_in_progress', conflictMessages.turn_in_progress);
    this.startTurn(
      duel,
      {
        turn,
        prompt,
        sides: {
          a: { modelId: duel.modelA, history: history('a'), replacementPool: [] },
          b: { modelId: duel.modelB, history: history('b'), replacementPool: [] },
        },
      },
      sideRecords.map(summaryOf),
    );
    return { turn };
  }

  /** The frames of a turn (the latest by default): live while it runs, from the store once it has ended. */
  async openTurnStream(duelId: string, turn: number | undefined, visitorId: string): Promise<TurnStream> {
    const duel = await this.requireDuel(duelId, visitorId);
    const wanted = turn ?? duel.turnCount;
    const key = streamKey(duelId, wanted);
    const live = this.live.get(key);
    if (live) return live;
    const stored = await this.dependencies.store.duels.findTurnFrames(duelId, wanted);
    if (stored === undefined) throw new AppError('turn_not_found', `this duel has no turn ${wanted}`);
    if (stored !== null) return TurnStream.fromStored(stored);
    if (!this.dependencies.settings.severalInstances) return interruptedTurn(wanted);
    // Another instance may be running it: follow its frames through the store, shared by this instance's readers.
    const followed = this.followElsewhere(duelId, wanted);
    this.live.set(key, followed);
    void this.untilEnded(followed).then(() => {
      // A failed turn is replayed from the store, where its answers are withheld; a completed one stays a while.
      const failed = followed.snapshot().some(({ event }) => event.type === 'turn-end' && event.status === 'failed');
      if (failed) return this.forgetStream(key, followed);
      const forget = setTimeout(() => this.forgetStream(key, followed), this.dependencies.settings.replayTtlMs);
      forget.unref();
    });
    return followed;
  }

  /**
   * A turn run by another instance, followed through the store: its live frames as they are
   * appended (polled), then, once the turn is stored, the rest of its final frames; a turn that
   * ended without frames (its instance died) ends as interrupted.
   */
  private followElsewhere(duelId: string, turn: number): TurnStream {
    const { store, logError } = this.dependencies;
    const stream = new TurnStream();
    const pushAfter = (frames: readonly { id: number; event: StreamEvent }[]) => {
      for (const frame of frames) if (frame.id > stream.lastId && !stream.isEnded) stream.push(frame.event);
    };
    // The turn ended without its frames (its instance died), or following it failed: it ends as interrupted here.
    const endInterrupted = () => {
      if (stream.isEnded) return;
      if (stream.lastId === 0) stream.push({ type: 'turn-start', turn });
      for (const frame of interruptedTurn(turn).snapshot().slice(1)) stream.push(frame.event);
    };
    const follow = async () => {
      for (;;) {
        const status = await store.duels.findTurnStatus(duelId, turn);
        if (status !== 'streaming') {
          const final = await store.duels.findTurnFrames(duelId, turn);
          if (final) pushAfter(final);
          endInterrupted();
          return;
        }
        pushAfter(await store.duels.liveFramesAfter(duelId, turn, stream.lastId));
        if (stream.isEnded) return;
        await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
      }
    };
    follow().catch((error: unknown) => {
      logError(`following turn ${turn} of duel ${duelId} from the store failed`, error);
      endInterrupted();
    });
    return stream;
  }

  private async untilEnded(stream: TurnStream): Promise<void> {
    for await (const _frames of stream.follow(stream.lastId)) {
      // Only the end matters here.
    }
  }

  /**
   * Appends the frames of a turn this instance runs to the store every {@link FOLLOW_POLL_MS}, for
   * the other instances; `stop` flushes the rest and then drops them (call it once the turn is stored).
   */
  private publishFrames(duelId: string, turn: number, stream: TurnStream): { stop: () => Promise<void> } {
    const { store, logError } = this.dependencies;
    let sent = 0;
    let writing: Promise<void> = Promise.resolve();
    const flush = () => {
      const frames = stream.snapshot().slice(sent);
      if (frames.length > 0) {
        sent += frames.length;
        writing = writing
          .then(() => store.duels.appendLiveFrames(duelId, turn, frames))
          .catch((error: unknown) => logError(`sharing the frames of turn ${turn} of duel ${duelId} failed`, error));
      }
      return writing;
    };
    const timer = setInterval(() => void flush(), FOLLOW_POLL_MS);
    timer.unref();
    return {
      stop: async () => {
        clearInterval(timer);
        await flush();
        await store.duels.dropLiveFrames(duelId, turn).catch((error: unknown) => logError(`dropping live frames of duel ${duelId}`, error));
      },
    };
  }

  async transcript(duelId: string, visitorId: string): Promise<Transcript> {
    const { store } = this.dependencies;
    const duel = await this.requireDuel(duelId, visitorId);
    const [turns, sideRecords, reactions, vote] = await Promise.all([
      store.duels.listTurns(duelId),
      store.duels.listSides(duelId),
      store.feedback.listReactions(duelId),
      store.feedback.findVote(duelId),
    ]);
    const answer = (turn: number, status: string, side: Side) => {
      // A failed turn is withheld for both sides: one side's answer alone is never shown.
      if (status === 'failed') return { text: '', reasoning: null };
      const record = sideRecords.find((candidate) => candidate.turn === turn && candidate.side === side);
      const liveText = this.live.get(streamKey(duelId, turn))?.text[side] ?? '';
      return { text: record?.text ?? liveText, reasoning: record?.reasoning || null };
    };
    return {
      id: duel.id,
      status: duel.status as DuelStatus,
      mode: duel.mode as Transcript['mode'],
      turns: turns.map((turn) => ({
        turn: turn.turn,
        prompt: turn.prompt,
        status: turn.status as TurnStatus,
        a: answer(turn.turn, turn.status, 'a'),
        b: answer(turn.turn, turn.status, 'b'),
      })),
      reactions: reactions.map((reaction) => ({
        side: reaction.side,
        turn: reaction.turn,
        value: reaction.value,
        tags: reaction.tags as Reaction['tags'],
        comment: reaction.comment,
      })),
      ...(vote
        ? {
            vote: {
              choice: vote.choice as VoteRequest['choice'],
              tags: { a: vote.tagsA as Reaction['tags'], b: vote.tagsB as Reaction['tags'] },
            },
            reveal: this.buildReveal(duel, sideRecords),
          }
        : {}),
    };
  }

  async react(duelId: string, request: ReactionRequest, visitorId: string): Promise<Reaction> {
    const { store, runtime } = this.dependencies;
    const duel = await this.requireDuel(duelId, visitorId);
    const turnStatus = await store.duels.findTurnStatus(duelId, request.turn);
    if (turnStatus === undefined) throw new AppError('turn_not_found', `this duel has no turn ${request.turn}`);
    const conflict = checkReaction({ status: duel.status as DuelStatus, turnCount: duel.turnCount }, turnStatus as TurnStatus);
    // A failed follow-up in a duel that goes on: say so, not that the whole duel is over.
    if (conflict === 'duel_failed' && duel.status !== 'failed')
      throw new AppError('duel_failed', 'this turn failed: its answers are withheld, and nothing of it can be reacted to');
    this.throwIfConflict(conflict);
    const answer = (await store.duels.listSideSummaries(duelId)).find(
      (record) => record.turn === request.turn && record.side === request.side,
    )!;
    const reaction: Reaction = {
      side: request.side,
      turn: request.turn,
      value: request.value,
      tags: request.value ? (request.tags ?? []) : [],
      comment: request.value ? (request.comment ?? null) : null,
    };
    if (request.value === null) await store.feedback.deleteReaction(duelId, request.turn, request.side);
    else {
      await store.feedback.upsertReaction({
        duelId,
        turn: request.turn,
        side: request.side,
        modelId: answer.modelId,
        value: request.value,
        tags: reaction.tags,
        comment: reaction.comment,
        at: runtime.now().toISOString(),
      });
    }
    return reaction;
  }

  /** `clientAddress`: where the vote came from, kept as a hash for the integrity rules (bursts, stuffing from one address). */
  async vote(duelId: string, request: VoteRequest, visitorId: string, clientAddress: string): Promise<VoteResponse> {
    const { store, runtime } = this.dependencies;
    // With several instances, another one may have run a follow-up since this one cached the context.
    const cached = this.dependencies.settings.severalInstances ? undefined : this.voteContexts.get(duelId);
    const context = cached ?? (await store.duels.findVoteContext(duelId));
    if (!context || !isPlayable(context.duel) || !isOwner(context.duel, visitorId))
      throw new AppError('duel_not_found', 'no duel with this id');
    const { duel, sides: sideRecords } = context;
    this.throwIfConflict(checkVote({ status: duel.status as DuelStatus, turnCount: duel.turnCount }));
    const reveal = this.buildReveal(duel, sideRecords);
    const now = runtime.now().toISOString();
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
      clientHash: hashClientAddress(clientAddress),
      ranking: { a: rankingData(sideRecords, 'a', reveal.a), b: rankingData(sideRecords, 'b', reveal.b) },
    });
    // Voted or refused, the duel is no longer waiting for its vote here.
    this.voteContexts.forget(duelId);
    if (!recorded) {
      const current = await this.requireDuel(duelId, visitorId);
      this.throwIfConflict(checkVote({ status: current.status as DuelStatus, turnCount: current.turnCount }) ?? 'already_voted');
    }
    this.dependencies.metrics.voteRecorded(request.choice);
    this.dependencies.onVoteRecorded?.(duelId);
    return { reveal };
  }

  /** A report by the duel's visitor; a duel is reported once (a second report changes nothing). */
  async report(duelId: string, reason: string, visitorId: string): Promise<void> {
    await this.requireDuel(duelId, visitorId);
    const { store, runtime } = this.dependencies;
    await store.feedback.insertReportOnce({ id: runtime.newId(), duelId, reason, createdAt: runtime.now().toISOString() });
  }

  /**
   * Marks failed the turns a stopped process left `streaming` (kill -9, a crash): their duel could
   * otherwise never be voted on ("turn in progress"). Safe with several instances: a live turn is
   * never older than the deadline. Returns the duels it ended.
   */
  async failInterruptedTurns(): Promise<string[]> {
    const { store, runtime, settings } = this.dependencies;
    const now = runtime.now();
    return store.duels.failInterruptedTurns(new Date(now.getTime() - settings.turnDeadlineMs).toISOString(), now.toISOString());
  }

  /** Resolves once every running turn has ended and been stored (graceful shutdown, tests). */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /**
   * Runs a turn in the background; with `duelStored`, the turn is stored once that commit is, and
   * `cancel` stops it. `earlierSides` are the answers of the duel's earlier turns (for its vote context).
   */
  private startTurn(
    duel: DuelRecord,
    plan: TurnPlan,
    earlierSides: readonly TurnSideSummary[],
    duelStored?: { committed: Promise<unknown>; cancel: AbortSignal },
  ): TurnStream {
    const duelId = duel.id;
    const stream = new TurnStream();
    const key = streamKey(duelId, plan.turn);
    this.live.set(key, stream);
    const { registry, catalogue, metrics, runtime, settings } = this.dependencies;
    const dependencies = {
      registry,
      catalogue,
      metrics,
      random: runtime.random,
      now: runtime.now,
      retries: settings.upstreamRetries,
      logUpstream: this.dependencies.logUpstream,
    };
    const publisher = settings.severalInstances ? this.publishFrames(duelId, plan.turn, stream) : undefined;
    const task = runTurn(plan, stream, dependencies, duelStored?.cancel)
      .then(async (outcome) => {
        await duelStored?.committed;
        await this.finishTurn(duel, earlierSides, plan, stream, outcome);
      })
      .catch((error: unknown) => this.abandonTurn(duelId, plan.turn, stream, error))
      .then(() => publisher?.stop())
      .finally(() => {
        this.running.delete(task);
        const forget = setTimeout(() => this.forgetStream(key, stream), settings.replayTtlMs);
        forget.unref();
      });
    this.running.add(task);
    return stream;
  }

  /** Drops a turn's live stream, unless a newer stream of the same turn took its place. */
  private forgetStream(key: string, stream: TurnStream): void {
    if (this.live.get(key) === stream) this.live.delete(key);
  }

  /** Stores the turn, then closes its stream: a client that sees `turn-end` can vote at once. */
  private async finishTurn(
    duel: DuelRecord,
    earlierSides: readonly TurnSideSummary[],
    plan: TurnPlan,
    stream: TurnStream,
    outcome: TurnOutcome,
  ): Promise<void> {
    const duelId = duel.id;
    const closing: StreamEvent[] = outcome.failure
      ? [
          {
            type: 'turn-error',
            code: outcome.failure.kind,
            message:
              plan.turn === 1
                ? 'One of the two models could not answer, so this turn is not shown or counted. Start a new duel or try again.'
                : 'One of the two models could not answer, so this turn is not shown or counted. You can vote on the earlier turns or send the message again.',
            retryable: outcome.failure.isRetryable,
          },
        ]
      : [];
    closing.push({ type: 'turn-end', turn: plan.turn, status: outcome.status });
    const frames = [...stream.snapshot(), ...closing.map((event, index) => ({ id: stream.lastId + index + 1, event }))].filter(
      // A failed turn is withheld for both sides: a replay gives its start, its error and its end, no answer.
      ({ event }) => outcome.status === 'complete' || !WITHHELD_FROM_FAILED_TURNS.has(event.type),
    );
    const endedAt = this.dependencies.runtime.now().toISOString();
    const finished: FinishedTurn = {
      duelId,
      turn: plan.turn,
      status: outcome.status,
      errorCode: outcome.failure?.kind ?? null,
      framesJson: JSON.stringify(frames),
      endedAt,
      sides: sides.map((side) => toSideRecord(plan.turn, outcome.sides[side])),
      errors: sides.flatMap((side) =>
        outcome.sides[side].failures.map((failure) => ({
          id: this.dependencies.runtime.newId(),
          turn: plan.turn,
          side,
          modelId: failure.modelId,
          kind: failure.error.kind,
          statusCode: failure.error.statusCode ?? null,
          message: failure.error.message,
          replaced: failure.replaced,
          createdAt: failure.at.toISOString(),
        })),
      ),
      duelStatus: duelStatusAfterTurn(plan.turn, outcome.status),
      models: plan.turn === 1 ? { a: outcome.sides.a.modelId, b: outcome.sides.b.modelId } : undefined,
    };
    await this.dependencies.store.transaction(async (repositories) => {
      await repositories.duels.finishTurn(finished);
      // A failed turn ends the duel: its conversation (prompts included) goes to post-processing.
      if (finished.duelStatus === 'failed') await repositories.annotations.enqueue([duelId], endedAt);
    });
    this.voteContexts.remember(duelId, {
      duel: {
        ...duel,
        status: finished.duelStatus,
        turnCount: plan.turn,
        ...(finished.models ? { modelA: finished.models.a, modelB: finished.models.b } : {}),
      },
      sides: [...earlierSides, ...finished.sides.map(summaryOf)],
    });
    for (const event of closing) stream.push(event);
    // Reconnections to a failed turn replay it from the store, where its answers are withheld.
    if (outcome.status === 'failed') this.forgetStream(streamKey(duelId, plan.turn), stream);
    this.dependencies.metrics.turnEnded(outcome.status);
    this.dependencies.onTurnStored?.(duelId, outcome.status);
  }

  /** The store refused the turn: tell the client it failed (nothing can be voted on), and log why. */
  private abandonTurn(duelId: string, turn: number, stream: TurnStream, error: unknown): void {
    this.dependencies.logError(`turn ${turn} of duel ${duelId} could not be stored`, error);
    if (stream.isEnded) return;
    stream.push({
      type: 'turn-error',
      code: 'store_unavailable',
      message: 'This turn could not be saved. Please start a new duel.',
      retryable: true,
    });
    stream.push({ type: 'turn-end', turn, status: 'failed' });
  }

  private buildReveal(duel: DuelRecord, sideRecords: readonly TurnSideSummary[]): { a: Reveal; b: Reveal } {
    const revealSide = (side: Side, modelId: string): Reveal => {
      const answers = answersOfCompletedTurns(sideRecords)
        .filter((record) => record.side === side)
        .map((record) => ({
          outputTokens: record.outputTokens ?? 0,
          latencySeconds: record.durationMs === null ? null : record.durationMs / 1000,
        }));
      const impact = this.dependencies.estimateImpact?.(modelId, answers, duel.locale);
      const outputTokens = answers.reduce((sum, answer) => sum + answer.outputTokens, 0);
      const price = this.dependencies.catalogue.outputPricePerMillion(modelId);
      return {
        model: this.dependencies.catalogue.card(modelId),
        output_tokens: outputTokens,
        ...(price !== undefined ? { output_cost_usd: (outputTokens * price) / 1_000_000 } : {}),
        ...(impact ? { impact } : {}),
      };
    };
    return { a: revealSide('a', duel.modelA), b: revealSide('b', duel.modelB) };
  }

  /**
   * The models this request may draw: all of them, or, once the requester's budget of characters
   * for costly models cannot pay for this prompt, only the others (a visitor who chose a costly
   * model is told to wait instead).
   */
  private async affordableCandidates(
    request: CreateDuelRequest,
    requester: Requester,
  ): Promise<{ candidates: PairingCandidate[]; withoutExpensive?: { resetMs: number } }> {
    const { catalogue, limiter } = this.dependencies;
    const candidates = catalogue.candidates();
    if (!limiter || !candidates.some((model) => model.expensive)) return { candidates };
    const left = await limiter.remaining('expensive_chars', requester);
    if (left.points >= request.prompt.length) return { candidates };
    if (request.models?.some((id) => catalogue.isExpensive(id))) throw rateLimitedError(EXPENSIVE_LIMIT_MESSAGE, left.resetMs);
    return { candidates: candidates.filter((model) => !model.expensive), withoutExpensive: { resetMs: left.resetMs } };
  }

  /**
   * A replacement for a side that fails before its first token: when nothing was charged for costly
   * models (neither drawn model is one), it is drawn among the others, or it would be a costly call
   * for free.
   */
  private uncharged(pool: readonly string[], duel: DuelRecord): string[] {
    const { catalogue, limiter } = this.dependencies;
    if (!limiter || catalogue.isExpensive(duel.modelA) || catalogue.isExpensive(duel.modelB)) return [...pool];
    return pool.filter((id) => !catalogue.isExpensive(id));
  }

  /** Counts the characters sent when one of the duel's models is costly; past the budget, 429. */
  private async spendOnExpensive(modelIds: readonly string[], chars: number, requester: Requester): Promise<void> {
    const { catalogue, limiter } = this.dependencies;
    if (!limiter || !modelIds.some((id) => catalogue.isExpensive(id))) return;
    const decision = await limiter.consume('expensive_chars', requester, Math.max(1, chars));
    if (!decision.allowed) throw rateLimitedError(EXPENSIVE_LIMIT_MESSAGE, decision.retryAfterMs);
  }

  private checkChosenModels(chosen: readonly string[] | undefined): void {
    if (!chosen) return;
    const { catalogue } = this.dependencies;
    const unknown = chosen.filter((id) => !catalogue.has(id));
    if (unknown.length > 0) throw new AppError('unknown_models', `unknown models: ${unknown.join(', ')}`);
    const unavailable = chosen.filter((id) => !catalogue.isDrawable(id));
    if (unavailable.length > 0) throw new AppError('model_unavailable', `models not available right now: ${unavailable.join(', ')}`);
  }

  /**
   * The duel, when it exists here and belongs to this visitor. Another visitor's duel is "not found"
   * rather than forbidden: its id, if guessed or leaked, says nothing, and nobody else can read,
   * continue, react to, vote on or report it.
   */
  private async requireDuel(duelId: string, visitorId: string): Promise<DuelRecord> {
    const duel = await this.dependencies.store.duels.findById(duelId);
    if (!duel || !isPlayable(duel) || !isOwner(duel, visitorId)) throw new AppError('duel_not_found', 'no duel with this id');
    return duel;
  }

  private throwIfConflict(conflict: DuelConflict | null): void {
    if (conflict) throw new AppError(conflict, conflictMessages[conflict]);
  }
}

const streamKey = (duelId: string, turn: number) => `${duelId}:${turn}`;

/** How often live frames are shared with, and read by, the other instances: the latency a follower adds. */
const FOLLOW_POLL_MS = 100;

/**
 * Only duels played here exist for visitors. Imported ones (compar:IA) have ids derived from public
 * pair ids: anyone could otherwise vote, react or prompt the models on them.
 */
/** A stored answer without its texts, as a vote needs it. */
function summaryOf({ text: _text, reasoning: _reasoning, ...summary }: TurnSideRecord): TurnSideSummary {
  return summary;
}

function isPlayable(duel: DuelRecord): boolean {
  return duel.source === undefined || duel.source === 'arena';
}

function isOwner(duel: Pick<DuelRecord, 'visitorHash'>, visitorId: string): boolean {
  return duel.visitorHash === hashVisitor(visitorId);
}

/** A turn left `streaming` by a process that stopped mid-stream: it can only be reported as failed. */
function interruptedTurn(turn: number): TurnStream {
  const stream = new TurnStream();
  stream.push({ type: 'turn-start', turn });
  stream.push({
    type: 'turn-error',
    code: 'turn_interrupted',
    message: 'This turn was interrupted. Please start a new duel.',
    retryable: true,
  });
  stream.push({ type: 'turn-end', turn, status: 'failed' });
  return stream;
}

function toSideRecord(turn: number, outcome: SideOutcome): TurnSideRecord {
  return {
    turn,
    side: outcome.side,
    modelId: outcome.modelId,
    text: outcome.text,
    reasoning: outcome.reasoning || null,
    outputTokens: outcome.outputTokens,
    outputTokensSource: outcome.outputTokensSource,
    status: outcome.status,
    errorKind: outcome.status === 'failed' ? (outcome.failures.at(-1)?.error.kind ?? null) : null,
    finishReason: outcome.finishReason,
    ttftMs: outcome.ttftMs,
    durationMs: outcome.durationMs,
    identityLeak: outcome.identityLeak,
    servedModel: outcome.metadata.servedModel ?? null,
    servedModelMismatch: outcome.servedModelMismatch,
    style: outcome.style,
  };
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

/**
 * Runs `work` once Node has run the `process.nextTick` callbacks pending by then, including those that
 * the code after this call queues (Node empties the tick queue before it runs promise reactions).
 * Node hands a pooled connection to an HTTP request on the next tick (`ClientRequest.onSocket`), and
 * only then writes it; a SQLite transaction started at once would run first, as one unbroken chain
 * of promise reactions (better-sqlite3 is synchronous), and the upstream requests would leave after
 * the commit.
 */
function afterPendingTicks<T>(work: () => Promise<T>): Promise<T> {
  return new Promise<void>((resolve) => process.nextTick(resolve)).then(work);
}
