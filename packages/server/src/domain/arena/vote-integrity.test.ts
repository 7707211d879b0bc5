import { describe, expect, it } from 'vitest';
import { FAST_READER, type IntegrityRules, type VoteFacts, integrityFlags, rankingFlags, readingMs } from './vote-integrity';

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

  it('give a fast reader 60 characters a second of the last answers, at most 30 s, from their first character on screen', () => {
    expect(readingMs(0, FAST_READER)).toBe(0);
    expect(readingMs(270, FAST_READER)).toBe(4500);
    expect(readingMs(1800, FAST_READER)).toBe(30_000);
    expect(readingMs(50_000, FAST_READER)).toBe(30_000);
  });

  it('flag a vote cast before a fast reader could read the answers, the time they streamed counting as reading', () => {
    const rules: IntegrityRules = { ...RULES, minVoteMs: 1000, reading: FAST_READER };
    // Two answers of 270 characters in all need 4.5 s: a script voting 2.1 s after a stream of 0.1 s is flagged...
    const script = vote({ shownChars: 270, votedAfterMs: 2100, votedAfterShownMs: 2200 });
    // ...a reader who read them while they streamed for 3 s and voted 1.5 s after is not, nor one who waited 4.5 s.
    const readWhileStreaming = vote({ shownChars: 270, votedAfterMs: 1500, votedAfterShownMs: 4500 });
    const waited = vote({ shownChars: 270, votedAfterMs: 4400, votedAfterShownMs: 4500 });
    // A short answer read at once is not flagged past the floor; nothing is sooner than the floor (1 s) after the end.
    const short = vote({ shownChars: 40, votedAfterMs: 1000, votedAfterShownMs: 1100 });
    const reflex = vote({ shownChars: 40, votedAfterMs: 999, votedAfterShownMs: 60_000 });
    // Very long answers: 30 s is always enough.
    const long = vote({ shownChars: 20_000, votedAfterMs: 29_000, votedAfterShownMs: 30_000 });
    // Unknown lengths or times: only the floor is judged.
    const unknown = vote({ shownChars: null, votedAfterMs: 1200, votedAfterShownMs: null });
    const votes = [script, readWhileStreaming, waited, short, reflex, long, unknown];
    const flagged = [...integrityFlags(votes, rules).keys()];
    expect(flagged).toEqual([script.duelId, reflex.duelId]);
    // Without the reading part, only the floor; with a floor of 0, never.
    expect([...integrityFlags(votes, { ...rules, reading: undefined }).keys()]).toEqual([reflex.duelId]);
    expect(integrityFlags(votes, { ...rules, minVoteMs: 0 }).size).toBe(0);
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

  it('flag a cluster pushed by many visitors in the object form too (the console’s list and the boards that read it)', () => {
    // Five visitors, a minute apart, on one cluster: pushed; the same five without clusters: nothing.
    const pushRule = { ...RULES, clusterPush: { visitors: 5, windowMs: 10 * 60_000 } };
    const pushed = [0, 1, 2, 3, 4].map(() => vote({ promptCluster: 'cluster-7' }));
    const elsewhere = vote({ promptCluster: 'cluster-8' });
    expect([...integrityFlags([...pushed, elsewhere], pushRule)].map(([duel, flags]) => [duel, flags])).toEqual(
      pushed.map((one) => [one.duelId, ['cluster_push']]),
    );
    const unclustered = pushed.map((one) => ({ ...one, promptCluster: null }));
    expect(integrityFlags(unclustered, pushRule).size).toBe(0);
  });
});
