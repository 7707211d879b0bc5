import type { RecentVoteContexts } from '../recent-vote-contexts';
import type { DuelServiceDependencies } from './duel-dependencies';
import type { LiveTurns } from './live-turns';

// The context holds the live turns, which take the service's dependencies: it stands above both, in
// a module of its own, so that duel-dependencies.ts and live-turns.ts do not import each other.

/** What the use cases that start turns share: the service's dependencies, this process's live turns and its vote contexts. */
export interface DuelContext {
  dependencies: DuelServiceDependencies;
  turns: LiveTurns;
  /** Duels whose turn ended here, ready for their vote without a read of the store. */
  voteContexts: RecentVoteContexts;
}
