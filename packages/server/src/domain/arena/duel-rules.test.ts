import { describe, expect, it } from 'vitest';
import { answersOfCompletedTurns, checkFollowUp, checkReaction, checkVote, duelStatusAfterTurn } from './duel-rules';

describe('duel rules', () => {
  it.each([
    ['ready', null],
    ['voted', 'already_voted'],
    ['failed', 'duel_failed'],
    ['streaming', 'turn_in_progress'],
  ] as const)('a vote on a %s duel → %s', (status, conflict) => {
    expect(checkVote({ status, turnCount: 1 })).toBe(conflict);
  });

  it('a follow-up needs a ready duel under the turn limit', () => {
    expect(checkFollowUp({ status: 'ready', turnCount: 2 }, 3)).toBeNull();
    expect(checkFollowUp({ status: 'ready', turnCount: 3 }, 3)).toBe('turn_limit_reached');
    expect(checkFollowUp({ status: 'failed', turnCount: 1 }, 3)).toBe('duel_failed');
  });

  it.each([
    ['ready', 'complete', null],
    ['streaming', 'complete', null],
    ['streaming', 'streaming', 'turn_in_progress'],
    ['ready', 'failed', 'duel_failed'],
    ['failed', 'complete', 'duel_failed'],
    ['voted', 'complete', 'already_voted'],
  ] as const)('a reaction on a %s duel, %s turn → %s', (status, turn, conflict) => {
    expect(checkReaction({ status, turnCount: 2 }, turn)).toBe(conflict);
  });

  it('a failed first turn fails the duel; a failed follow-up leaves it ready for a vote on the turns before', () => {
    expect(duelStatusAfterTurn(1, 'complete')).toBe('ready');
    expect(duelStatusAfterTurn(1, 'failed')).toBe('failed');
    expect(duelStatusAfterTurn(2, 'failed')).toBe('ready');
    expect(duelStatusAfterTurn(7, 'complete')).toBe('ready');
  });

  it('a vote judges the answers of turns both sides completed, never one side of a failed turn', () => {
    const answers = [
      { turn: 1, side: 'a', status: 'complete' },
      { turn: 1, side: 'b', status: 'complete' },
      { turn: 2, side: 'a', status: 'complete' },
      { turn: 2, side: 'b', status: 'failed' },
      { turn: 3, side: 'a', status: 'cancelled' },
      { turn: 3, side: 'b', status: 'complete' },
      { turn: 4, side: 'a', status: 'complete' },
      { turn: 4, side: 'b', status: 'complete' },
    ];
    expect(answersOfCompletedTurns(answers).map(({ turn, side }) => `${turn}${side}`)).toEqual(['1a', '1b', '4a', '4b']);
    expect(answersOfCompletedTurns([])).toEqual([]);
  });
});
