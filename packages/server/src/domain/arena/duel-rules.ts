import type { DuelStatus } from '@agora/contract';

/** Why an action on a duel is refused; each maps to a 409 at the HTTP edge. */
export type DuelConflict = 'already_voted' | 'duel_failed' | 'turn_in_progress' | 'turn_limit_reached';

/** The state of a duel the rules look at. */
export interface DuelState {
  status: DuelStatus;
  turnCount: number;
}

const conflictOfStatus: Record<DuelStatus, DuelConflict | null> = {
  ready: null,
  voted: 'already_voted',
  failed: 'duel_failed',
  streaming: 'turn_in_progress',
};

/**
 * A vote is accepted once, on a duel whose every turn completed: never on a failed turn (that
 * would count one side's answer alone) and never while a turn still streams.
 */
export function checkVote(duel: DuelState): DuelConflict | null {
  return conflictOfStatus[duel.status];
}

/** A follow-up turn needs the same state as a vote, and stays under the operator's turn limit. */
export function checkFollowUp(duel: DuelState, maxTurns: number): DuelConflict | null {
  return conflictOfStatus[duel.status] ?? (duel.turnCount >= maxTurns ? 'turn_limit_reached' : null);
}

/** The state of the turn a reaction targets. */
export type TurnStatus = 'streaming' | 'complete' | 'failed';

/**
 * Reactions are allowed on any finished answer of a finished, complete turn, and can be changed
 * until the vote. A failed duel keeps its earlier complete turns, but no reaction is taken on a
 * failed duel: nothing of it will be counted.
 */
export function checkReaction(duel: DuelState, turn: TurnStatus): DuelConflict | null {
  if (duel.status === 'voted') return 'already_voted';
  if (duel.status === 'failed' || turn === 'failed') return 'duel_failed';
  return turn === 'streaming' ? 'turn_in_progress' : null;
}
