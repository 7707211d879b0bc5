import type {
  CreateDuelRequest,
  ParsedReportRequest,
  Reaction,
  ReactionRequest,
  Transcript,
  TurnVerdict,
  TurnVerdictEntry,
  VoteRequest,
  VoteResponse,
} from '@agora/contract';
import type { Requester } from '../ports/request-limiter';
import { RecentVoteContexts } from '../recent-vote-contexts';
import { requireDuel } from './duel-access';
import type { DuelContext } from './duel-context';
import type { DuelServiceDependencies } from './duel-dependencies';
import { followUp } from './follow-up';
import { LiveTurns } from './live-turns';
import { createDuel } from './new-duel';
import { react, report } from './reactions-and-reports';
import { transcript } from './transcript';
import { giveTurnVerdict } from './turn-verdicts';
import type { TurnStream } from './turn-stream';
import { DuelVotes } from './votes';

/**
 * The duel lifecycle: draw two anonymous models, run turns in the background, take reactions and
 * exactly one vote, then reveal. Generation is decoupled from HTTP: turns run here and write to a
 * {@link TurnStream} that any number of connections follow. Each use case has its own file in this
 * folder; this class holds the state they share (the live turns, the vote contexts, the vote group
 * commit) and is the one door the routes and the composition root see.
 */
export class DuelService {
  private readonly context: DuelContext;
  private readonly votes: DuelVotes;

  constructor(private readonly dependencies: DuelServiceDependencies) {
    const voteContexts = new RecentVoteContexts(10_000);
    this.context = { dependencies, turns: new LiveTurns(dependencies, voteContexts), voteContexts };
    this.votes = new DuelVotes(dependencies, voteContexts);
  }

  /** `cohort`: the operator's campaign this duel belongs to (private cohorts stay out of exports). */
  createDuel(request: CreateDuelRequest, requester: Requester, cohort: string | null = null): Promise<{ id: string; turn: number }> {
    return createDuel(this.context, request, requester, cohort);
  }

  /** A follow-up prompt, sent to both sides with each side's own history. */
  followUp(duelId: string, prompt: string, requester: Requester): Promise<{ turn: number }> {
    return followUp(this.context, duelId, prompt, requester);
  }

  /** The frames of a turn (the latest by default): live while it runs, from the store once it has ended. */
  async openTurnStream(duelId: string, turn: number | undefined, visitorId: string): Promise<TurnStream> {
    const duel = await requireDuel(this.dependencies.store, duelId, visitorId);
    return this.context.turns.open(duelId, turn ?? duel.turnCount);
  }

  transcript(duelId: string, visitorId: string): Promise<Transcript> {
    return transcript(this.context, duelId, visitorId);
  }

  react(duelId: string, request: ReactionRequest, visitorId: string): Promise<Reaction> {
    return react(this.dependencies, duelId, request, visitorId);
  }

  /** A verdict on one completed turn, changeable until the duel's vote (which stays required for the reveal). */
  giveTurnVerdict(target: { duelId: string; turn: number }, verdict: TurnVerdict, requester: Requester): Promise<TurnVerdictEntry> {
    return giveTurnVerdict(this.dependencies, target, verdict, requester);
  }

  /** `clientAddress`: where the vote came from, kept as a hash for the integrity rules (bursts, stuffing from one address). */
  vote(duelId: string, request: VoteRequest, visitorId: string, clientAddress: string): Promise<VoteResponse> {
    return this.votes.vote(duelId, request, visitorId, clientAddress);
  }

  /** A report by the duel's visitor, of the duel or one answer; each is reported once (a second report changes nothing). */
  report(duelId: string, request: ParsedReportRequest, visitorId: string): Promise<void> {
    return report(this.dependencies, duelId, request, visitorId);
  }

  /**
   * Marks failed the turns a stopped process left `streaming` (kill -9, a crash): their duel could
   * otherwise never be voted on ("turn in progress"). A turn is taken for cut when its lease has
   * lapsed (turn-lease.ts), or, without a lease (turns from before leases), when it is older than the
   * deadline. Safe with several instances: a live turn's lease is renewed, and a live turn is never
   * older than the deadline. Returns the duels it ended.
   */
  async failInterruptedTurns(): Promise<string[]> {
    const { store, runtime, settings } = this.dependencies;
    const now = runtime.now();
    const startedBefore = new Date(now.getTime() - settings.turnDeadlineMs).toISOString();
    return store.duels.failInterruptedTurns({ leaseLapsedBefore: now.toISOString(), startedBefore }, now.toISOString());
  }

  /** Resolves once every running turn has ended and been stored (graceful shutdown, tests). */
  drain(): Promise<void> {
    return this.context.turns.drain();
  }
}
