import type { DuelRecord, TurnSideSummary } from '../db/repositories/duel.repository';

/** What a vote needs of its duel: the duel and its answers, without their texts. */
export interface VoteContext {
  duel: DuelRecord;
  sides: TurnSideSummary[];
}

/**
 * The vote contexts of duels whose latest turn ended in this process, so that the vote that usually
 * follows need not read them back from the store (one query, a round trip on PostgreSQL). Bounded:
 * the oldest go first. Never the authority on a duel's status: the vote's commit checks it in the
 * store, so a context made stale elsewhere (a vote or a follow-up through another instance) can only
 * lead to a refused vote, never to a second one.
 */
export class RecentVoteContexts {
  private readonly contexts = new Map<string, VoteContext>();

  constructor(private readonly capacity: number) {}

  get(duelId: string): VoteContext | undefined {
    return this.contexts.get(duelId);
  }

  remember(duelId: string, context: VoteContext): void {
    this.contexts.delete(duelId);
    this.contexts.set(duelId, context);
    if (this.contexts.size > this.capacity) this.contexts.delete(this.contexts.keys().next().value!);
  }

  forget(duelId: string): void {
    this.contexts.delete(duelId);
  }

  get size(): number {
    return this.contexts.size;
  }
}
