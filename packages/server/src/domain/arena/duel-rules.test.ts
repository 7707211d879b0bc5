import { describe, expect, it } from 'vitest';
import { checkFollowUp, checkReaction, checkVote } from './duel-rules';

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
});
