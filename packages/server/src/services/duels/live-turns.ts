import type { DuelRecord, TurnSideSummary } from '../../db/repositories/duel.repository';
import { AppError } from '../app-error';
import type { RecentVoteContexts } from '../recent-vote-contexts';
import type { DuelServiceDependencies } from './duel-dependencies';
import { closingEvents, endAsInterrupted, endAsUnstored, interruptedTurn } from './turn-endings';
import { TurnLease, TurnLeaseRenewals } from './turn-lease';
import { finishedTurn, framesToStore, voteContextAfter } from './turn-records';
import { type TurnOutcome, type TurnPlan, runTurn } from './turn-runner';
import { TurnStream } from './turn-stream';
import { followElsewhere, publishFrames } from './turns-across-instances';

/**
 * The turns of this process: those it runs in the background, each writing to a {@link TurnStream}
 * that any number of connections follow (kept a while after the turn ends, for reconnections), and
 * those of other instances it follows for its own readers. Generation is decoupled from HTTP.
 */
export class LiveTurns {
  private readonly live = new Map<string, TurnStream>();
  private readonly running = new Set<Promise<void>>();
  private readonly leaseRenewals: TurnLeaseRenewals;

  constructor(
    private readonly dependencies: DuelServiceDependencies,
    private readonly voteContexts: RecentVoteContexts,
  ) {
    this.leaseRenewals = new TurnLeaseRenewals(dependencies);
  }

  /** The turn's stream while this process keeps it. */
  get(duelId: string, turn: number): TurnStream | undefined {
    return this.live.get(streamKey(duelId, turn));
  }

  /** The frames of a turn: live while it runs, from the store once it has ended. */
  async open(duelId: string, turn: number): Promise<TurnStream> {
    const key = streamKey(duelId, turn);
    const live = this.live.get(key);
    if (live) return live;
    const stored = await this.dependencies.store.duels.findTurnFrames(duelId, turn);
    if (stored === undefined) throw new AppError('turn_not_found', `this duel has no turn ${turn}`);
    if (stored !== null) return TurnStream.fromStored(stored);
    if (!this.dependencies.settings.severalInstances) return interruptedTurn(turn);
    // Another instance may be running it: follow its frames through the store, shared by this instance's readers.
    const followed = followElsewhere(this.dependencies, duelId, turn);
    this.live.set(key, followed);
    void untilEnded(followed).then(() => {
      // A failed turn is replayed from the store, where its answers are withheld; a completed one stays a while.
      const failed = followed.snapshot().some(({ event }) => event.type === 'turn-end' && event.status === 'failed');
      if (failed) return this.forget(duelId, turn, followed);
      const forget = setTimeout(() => this.forget(duelId, turn, followed), this.dependencies.settings.replayTtlMs);
      forget.unref();
    });
    return followed;
  }

  /**
   * Runs a turn in the background; with `duelStored`, the turn is stored once that commit is, and
   * `cancel` stops it. `earlierSides` are the answers of the duel's earlier turns (for its vote context).
   */
  start(
    duel: DuelRecord,
    plan: TurnPlan,
    earlierSides: readonly TurnSideSummary[],
    duelStored?: { committed: Promise<unknown>; cancel: AbortSignal },
  ): TurnStream {
    const duelId = duel.id;
    const stream = new TurnStream();
    this.live.set(streamKey(duelId, plan.turn), stream);
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
    const publisher = settings.severalInstances ? publishFrames(this.dependencies, duelId, plan.turn, stream) : undefined;
    // Renewed from the moment the turn's row is stored until the turn is stored finished; another
    // instance that took this one for dead (its lease lapsed) stops the turn.
    const lease = new TurnLease(this.leaseRenewals, duelId, plan.turn);
    lease.holdAfter(duelStored?.committed);
    const cancel = duelStored ? AbortSignal.any([duelStored.cancel, lease.lost]) : lease.lost;
    const task = runTurn(plan, stream, dependencies, cancel)
      .then(async (outcome) => {
        await duelStored?.committed;
        await this.finish(duel, earlierSides, plan, stream, outcome);
      })
      .catch((error: unknown) => this.abandon(duelId, plan.turn, stream, error))
      .then(() => {
        lease.release();
        return publisher?.stop();
      })
      .finally(() => {
        this.running.delete(task);
        const forget = setTimeout(() => this.forget(duelId, plan.turn, stream), settings.replayTtlMs);
        forget.unref();
      });
    this.running.add(task);
    return stream;
  }

  /** Drops a turn's live stream, unless a newer stream of the same turn took its place. */
  forget(duelId: string, turn: number, stream: TurnStream): void {
    const key = streamKey(duelId, turn);
    if (this.live.get(key) === stream) this.live.delete(key);
  }

  /** Resolves once every running turn has ended and been stored (graceful shutdown, tests). */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Stores the turn, then closes its stream: a client that sees `turn-end` can vote at once. */
  private async finish(
    duel: DuelRecord,
    earlierSides: readonly TurnSideSummary[],
    plan: TurnPlan,
    stream: TurnStream,
    outcome: TurnOutcome,
  ): Promise<void> {
    const { store, runtime, metrics } = this.dependencies;
    const closing = closingEvents(plan.turn, outcome);
    const frames = framesToStore(stream.snapshot(), closing, outcome.status);
    const endedAt = runtime.now().toISOString();
    const finished = finishedTurn(duel.id, plan, outcome, { frames, endedAt, newId: () => runtime.newId() });
    const stored = await store.transaction(async (repositories) => {
      if (!(await repositories.duels.finishTurn(finished))) return false;
      // A failed turn ends the duel: its conversation (prompts included) goes to post-processing.
      if (finished.duelStatus === 'failed') await repositories.annotations.enqueue([duel.id], finished.endedAt);
      return true;
    });
    if (!stored) return this.yieldToInterruption(duel.id, plan.turn, stream);
    this.voteContexts.remember(duel.id, voteContextAfter(duel, earlierSides, finished));
    for (const event of closing) stream.push(event);
    // Reconnections to a failed turn replay it from the store, where its answers are withheld.
    if (outcome.status === 'failed') this.forget(duel.id, plan.turn, stream);
    metrics.turnEnded(outcome.status);
    this.dependencies.onTurnStored?.(duel.id, outcome.status);
  }

  /**
   * The turn was ended as interrupted while this process still ran it: its lease lapsed (a long
   * pause, a slow store) and another instance, or a request here, took it for dead. That ending
   * stands, since the visitor may already have been told and have voted or gone on; this process's
   * readers are told the same.
   */
  private yieldToInterruption(duelId: string, turn: number, stream: TurnStream): void {
    this.dependencies.logError(`turn ${turn} of duel ${duelId} was ended as interrupted while it ran: its lease had lapsed`, undefined);
    this.voteContexts.forget(duelId);
    endAsInterrupted(stream, turn);
    this.forget(duelId, turn, stream);
    this.dependencies.metrics.turnEnded('failed');
  }

  /** The store refused the turn: tell the client it failed (nothing can be voted on), and log why. */
  private abandon(duelId: string, turn: number, stream: TurnStream, error: unknown): void {
    this.dependencies.logError(`turn ${turn} of duel ${duelId} could not be stored`, error);
    endAsUnstored(stream, turn);
  }
}

const streamKey = (duelId: string, turn: number) => `${duelId}:${turn}`;

async function untilEnded(stream: TurnStream): Promise<void> {
  for await (const _frames of stream.follow(stream.lastId)) {
    // Only the end matters here.
  }
}
