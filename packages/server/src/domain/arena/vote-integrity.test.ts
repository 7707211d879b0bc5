import { describe, expect, it } from 'vitest';
import { type IntegrityRules, type VoteFacts, integrityFlags, rankingFlags } from './vote-integrity';

const RULES: IntegrityRules = { minVoteMs: 2000, oneSidedVotes: 4, burstVotesPerMinute: 3, favouriteVotes: 3 };
let next = 0;
/** A vote cast 10 s after its answers, each a minute after the previous one unless `at` says. */
const vote = (overrides: Partial<VoteFacts> = {}): VoteFacts => {
  next += 1;
  return {
    duelId: `d${next}`,
    createdAt: new Date(Date.UTC(2026, 11, 1, 0, next)).toISOString(),
    source: 'arena',
    visitor: `visitor-${next}`,
    client: `client-${next}`,
    choice: 'a',
    modelA: 'm1',
    modelB: 'm2',
    votedAfterMs: 10_000,
    review: null,
    ...overrides,
  };
};

describe('vote integrity rules', () => {
  it('leave honest votes alone: read answers, mixed sides, spread out, several visitors', () => {
    const votes = [
      vote({ visitor: 'v', choice: 'a' }),
      vote({ visitor: 'v', choice: 'b' }),
      vote({ visitor: 'v', choice: 'tie' }),
      vote({ visitor: 'v', choice: 'a', modelA: 'm3' }),
      vote({ visitor: 'w', choice: 'both_bad' }),
    ];
    expect(integrityFlags(votes, RULES)).toEqual(new Map());
  });

  it('flag a vote cast before the answers could be read', () => {
    const fast = vote({ votedAfterMs: 1999 });
    expect(integrityFlags([fast, vote({ votedAfterMs: 2000 }), vote({ votedAfterMs: null })], RULES)).toEqual(
      new Map([[fast.duelId, ['too_fast']]]),
    );
  });

  it('flag a visitor who always picks the same side, from the threshold on', () => {
    const three = [1, 2, 3].map(() => vote({ visitor: 'lefty', choice: 'a', modelA: `x${next}`, modelB: `y${next}` }));
    expect(integrityFlags(three, RULES).size).toBe(0);
    const four = [...three, vote({ visitor: 'lefty', choice: 'a', modelA: 'x9', modelB: 'y9' })];
    expect([...integrityFlags(four, RULES).values()]).toEqual([['one_sided'], ['one_sided'], ['one_sided'], ['one_sided']]);
  });

  it('flag a visitor that picks one model every time it appears, but not an address of many visitors for it alone', () => {
    const byVisitor = [
      vote({ visitor: 'fan', modelA: 'star', modelB: 'm2', choice: 'a' }),
      vote({ visitor: 'fan', modelA: 'm3', modelB: 'star', choice: 'b' }),
      vote({ visitor: 'fan', modelA: 'star', modelB: 'm4', choice: 'a' }),
      vote({ visitor: 'fan', modelA: 'm5', modelB: 'm6', choice: 'tie' }),
    ];
    const flags = integrityFlags(byVisitor, RULES);
    expect([...flags.keys()]).toEqual(byVisitor.slice(0, 3).map((item) => item.duelId));
    // Fresh cookies every time, one address: the same pattern is what a crowded /24 sees of a strong
    // model, so an address group is judged against the board's prediction (campaign-rule.test.ts) instead.
    const byAddress = [1, 2, 3].map((index) =>
      vote({ client: 'script', modelA: index === 2 ? 'm7' : 'star', modelB: index === 2 ? 'star' : 'm7', choice: index === 2 ? 'b' : 'a' }),
    );
    expect(integrityFlags(byAddress, RULES).size).toBe(0);
    // A tie with the model present before the threshold breaks the run: two picks, a tie, two picks flag nothing.
    const broken = [
      vote({ visitor: 'waverer', modelA: 'star', modelB: 'm2', choice: 'a' }),
      vote({ visitor: 'waverer', modelA: 'm3', modelB: 'star', choice: 'b' }),
      vote({ visitor: 'waverer', modelA: 'star', modelB: 'm8', choice: 'tie' }),
      vote({ visitor: 'waverer', modelA: 'star', modelB: 'm4', choice: 'a' }),
      vote({ visitor: 'waverer', modelA: 'star', modelB: 'm5', choice: 'a' }),
    ];
    expect(integrityFlags(broken, RULES).size).toBe(0);
  });

  it('never clear a flag for later contrary votes: the run that reached the threshold stays flagged', () => {
    const run = [1, 2, 3, 4].map(() => vote({ visitor: 'campaign', modelA: 'star', modelB: `o${next}`, choice: 'a' }));
    const contrary = [1, 2, 3, 4, 5].map(() => vote({ visitor: 'campaign', modelA: 'star', modelB: `o${next}`, choice: 'b' }));
    const flags = integrityFlags([...run, ...contrary], RULES);
    expect([...flags.keys()]).toEqual(run.map((item) => item.duelId));
    // Every 20th vote against the model (the red team's dodge): each run of 19 is flagged, the contrary votes are not.
    const dodging = Array.from({ length: 40 }, (_, index) =>
      vote({ visitor: 'dodger', modelA: 'star', modelB: `p${index}`, choice: index % 20 === 19 ? 'b' : 'a' }),
    );
    const dodged = integrityFlags(dodging, { ...RULES, favouriteVotes: 10 });
    expect(dodged.size).toBe(38);
    expect(dodged.has(dodging[19]!.duelId)).toBe(false);
  });

  it('flag the votes of an address within any minute that holds more than the limit', () => {
    const at = (second: number) => new Date(Date.UTC(2026, 11, 2, 0, 0, second)).toISOString();
    const burst = [0, 20, 40, 59].map((second, index) =>
      vote({ client: 'school', createdAt: at(second), choice: index % 2 ? 'a' : 'b', modelA: `p${index}`, modelB: `q${index}` }),
    );
    const later = vote({ client: 'school', createdAt: at(130), modelA: 'p9', modelB: 'q9' });
    const flags = integrityFlags([...burst, later], RULES);
    expect([...flags.keys()].sort()).toEqual(burst.map((item) => item.duelId).sort());
    // 60 seconds apart is another window.
    const spaced = [0, 30, 60, 90].map((second, index) =>
      vote({ client: 'calm', createdAt: at(200 + second), modelA: `r${index}`, modelB: `s${index}` }),
    );
    expect(integrityFlags(spaced, RULES).size).toBe(0);
  });

  it('judge only the arena’s own votes, and let a reviewer decide', () => {
    expect(integrityFlags([vote({ source: 'comparia', votedAfterMs: 0 })], RULES).size).toBe(0);
    expect(rankingFlags('count', ['too_fast'])).toEqual([]);
    expect(rankingFlags('exclude', undefined)).toEqual(['excluded_by_reviewer']);
    expect(rankingFlags(null, ['too_fast', 'one_sided'])).toEqual(['too_fast', 'one_sided']);
  });

  it('bound the influence of one address group, or one visitor, on one model: past the bound in a window, votes do not count, whatever their direction', () => {
    const bounded = { ...RULES, favouriteVotes: 1000, burstVotesPerMinute: 1000, influence: { votes: 4, windowMs: 3600_000 } };
    const at = (minute: number) => new Date(Date.UTC(2026, 11, 5, 0, minute)).toISOString();
    // Six votes on `star` within an hour, alternating sides and directions: the fifth and sixth are past the bound.
    const campaign = [0, 5, 10, 15, 20, 25].map((minute, index) =>
      vote({ client: 'range', createdAt: at(minute), modelA: 'star', modelB: `q${index}`, choice: index % 3 === 2 ? 'b' : 'a' }),
    );
    // An hour after the fourth, the window holds fewer than four again.
    const later = vote({ client: 'range', createdAt: at(80), modelA: `q9`, modelB: 'star', choice: 'b' });
    const flags = integrityFlags([...campaign, later], bounded);
    expect([...flags.keys()]).toEqual([campaign[4]!.duelId, campaign[5]!.duelId]);
    expect(flags.get(campaign[4]!.duelId)).toEqual(['beyond_influence_bound']);
    // One visitor over several addresses: the same bound.
    const fan = [0, 1, 2, 3, 4].map((minute) =>
      minute % 2
        ? vote({ visitor: 'fan', createdAt: at(200 + minute), modelA: `r${minute}`, modelB: 'star', choice: 'b' })
        : vote({ visitor: 'fan', createdAt: at(200 + minute), modelA: 'star', modelB: `r${minute}`, choice: 'a' }),
    );
    expect([...integrityFlags(fan, bounded).keys()]).toEqual([fan[4]!.duelId]);
    // Without a bound, nothing.
    expect(integrityFlags([...campaign, later], { ...bounded, influence: undefined }).size).toBe(0);
  });
});
