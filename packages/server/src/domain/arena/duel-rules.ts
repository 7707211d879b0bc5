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
 * A vote is accepted once, on a duel that is `ready`: its first turn completed, and no turn still
 * streams. A failed follow-up does not stop it (see {@link duelStatusAfterTurn}); the vote then
 * judges the completed turns only.
 */
export function checkVote(duel: DuelState): DuelConflict | null {
  return conflictOfStatus[duel.status];
}

/** A follow-up turn needs the same state as a vote, and stays under the operator's turn limit. */
export function checkFollowUp(duel: DuelState, maxTurns: number): DuelConflict | null {
  return conflictOfStatus[duel.status] ?? (duel.turnCount >= maxTurns ? 'turn_limit_reached' : null);
}

/**
 * The duel's status once a turn has ended. A failed first turn leaves nothing to judge: the duel
 * fails. A failed follow-up is withheld for both sides (never shown or counted: one side's answer
 * alone is not a duel), but the turns both models completed before it are still a fair duel, so the
 * duel stays `ready`: votable on those turns, and open to another follow-up.
 */
export function duelStatusAfterTurn(turn: number, status: 'complete' | 'failed'): 'ready' | 'failed' {
  return status === 'complete' || turn > 1 ? 'ready' : 'failed';
}

/** One side's answer of one turn, as far as the rules need it. */
export interface SideAnswer {
  turn: number;
  status: string;
}

/**
 * The answers a vote judges: those of turns whose two sides both completed. A turn where one side
 * completed and the other failed counts for neither (its tokens, style and energy included).
 */
export function answersOfCompletedTurns<T extends SideAnswer>(answers: readonly T[]): T[] {
  const completeSides = new Map<number, number>();
  for (const answer of answers) if (answer.status === 'complete') completeSides.set(answer.turn, (completeSides.get(answer.turn) ?? 0) + 1);
  return answers.filter((answer) => completeSides.get(answer.turn) === 2);
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
