import { describe, expect, it } from 'vitest';
import { matchesFromArenaVotes, matchesFromReactions, type ArenaReaction } from './arena-matches';

describe('matchesFromArenaVotes', () => {
  it('maps a/b to wins, tie and both_bad to ½, and leaves flagged votes out', () => {
    const { matches, excludedByFlag } = matchesFromArenaVotes([
      { modelA: 'x', modelB: 'y', choice: 'a' },
      { modelA: 'x', modelB: 'y', choice: 'b' },
      { modelA: 'x', modelB: 'y', choice: 'tie' },
      { modelA: 'x', modelB: 'y', choice: 'both_bad' },
      { modelA: 'x', modelB: 'y', choice: 'a', flags: ['identity_leak'] },
      { modelA: 'x', modelB: 'y', choice: 'b', flags: ['abuse', 'identity_leak'] },
      { modelA: 'x', modelB: 'y', choice: 'b', flags: ['reviewed'] },
    ]);
    expect(matches.map((match) => match.outcome)).toEqual(['model_a', 'model_b', 'tie', 'both_bad', 'model_b']);
    expect(excludedByFlag).toEqual({ identity_leak: 1, abuse: 1 });
  });

  it('keeps flagged votes when asked', () => {
    const { matches } = matchesFromArenaVotes([{ modelA: 'x', modelB: 'y', choice: 'a', flags: ['identity_leak'] }], {
      excludeFlags: [],
    });
    expect(matches).toHaveLength(1);
  });

  it('leaves out by default the votes the integrity rules or a reviewer flag, and a served model that was not the catalogue’s', () => {
    const flags = ['served_model_mismatch', 'too_fast', 'one_sided', 'address_burst', 'favours_one_model', 'excluded_by_reviewer'];
    const { matches, excludedByFlag } = matchesFromArenaVotes(
      flags.map((flag) => ({ modelA: 'x', modelB: 'y', choice: 'a', flags: [flag] })),
    );
    expect(matches).toEqual([]);
    expect(excludedByFlag).toEqual(Object.fromEntries(flags.map((flag) => [flag, 1])));
  });
});

describe("matchesFromReactions (compar:IA's rules)", () => {
  const reaction = (duelId: string, side: 'a' | 'b', liked: boolean, messageRank: number): ArenaReaction => ({
    duelId,
    modelA: 'x',
    modelB: 'y',
    side,
    liked,
    messageRank,
  });
  const outcome = (...reactions: ArenaReaction[]) => matchesFromReactions(reactions)[0]?.outcome;

  it('one reaction: a like wins, a dislike loses', () => {
    expect(outcome(reaction('d', 'a', true, 0))).toBe('model_a');
    expect(outcome(reaction('d', 'a', false, 0))).toBe('model_b');
    expect(outcome(reaction('d', 'b', true, 0))).toBe('model_b');
  });

  it('two reactions on one side: likes win, dislikes lose, like-then-dislike wins', () => {
    expect(outcome(reaction('d', 'b', true, 0), reaction('d', 'b', true, 1))).toBe('model_b');
    expect(outcome(reaction('d', 'b', false, 0), reaction('d', 'b', false, 1))).toBe('model_a');
    expect(outcome(reaction('d', 'a', true, 0), reaction('d', 'a', false, 1))).toBe('model_a');
    expect(outcome(reaction('d', 'a', false, 0), reaction('d', 'a', true, 1))).toBe('model_b');
    expect(outcome(reaction('d', 'a', true, 1), reaction('d', 'a', false, 1))).toBe('model_b');
  });

  it('two reactions across sides: the liked side wins; earlier like wins; earlier dislike loses; same message ties', () => {
    expect(outcome(reaction('d', 'a', false, 0), reaction('d', 'b', true, 0))).toBe('model_b');
    expect(outcome(reaction('d', 'a', true, 2), reaction('d', 'b', true, 1))).toBe('model_b');
    expect(outcome(reaction('d', 'a', true, 1), reaction('d', 'b', true, 1))).toBe('tie');
    expect(outcome(reaction('d', 'a', false, 0), reaction('d', 'b', false, 3))).toBe('model_b');
    expect(outcome(reaction('d', 'a', false, 2), reaction('d', 'b', false, 2))).toBe('tie');
  });

  it('ignores duels with three reactions or more, and groups by duel', () => {
    const three = [reaction('d', 'a', true, 0), reaction('d', 'b', true, 1), reaction('d', 'a', false, 2)];
    expect(matchesFromReactions(three)).toEqual([]);
    expect(matchesFromReactions([reaction('d1', 'a', true, 0), reaction('d2', 'b', true, 0)])).toHaveLength(2);
  });
});
