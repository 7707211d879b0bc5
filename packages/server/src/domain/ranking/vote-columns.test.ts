import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/seeded-random';
import {
  DEFAULT_INTEGRITY_RULES,
  INTEGRITY_FLAG_BIT,
  type VoteFacts,
  integrityFlagBits,
  integrityFlags,
  rankingFlags,
} from '../arena/vote-integrity';
import { type ViewDefinition, type ViewVote, computeViews, computeViewsFromColumns, countedVotes, viewKey } from './leaderboard-views';
import { RankingVoteColumns, type VoteColumns, categoriesOf } from './vote-columns';

/**
 * The columns give the object path's answers: integrity flags vote for vote, and the same
 * leaderboards for every view, on random histories with every rule and flag in play.
 */
function history(seed: number, size: number): { view: ViewVote; facts: VoteFacts }[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const models = ['m-alpha', 'm-beta', 'm-gamma', 'm-delta', 'm-eps', 'm-zeta'];
  let clock = Date.parse('2026-11-01T00:00:00.000Z');
  return Array.from({ length: size }, (_, index) => {
    // Bursts: now and then, a script votes 30 times in 15 seconds from one address.
    const scripted = index % 500 < 30;
    clock += scripted ? 500 : Math.floor(random() * 120_000);
    const visitor = random() < 0.05 ? 'v-fan' : random() < 0.3 ? 'v-one-sided' : `v-${Math.floor(random() * 40)}`;
    const choice = visitor === 'v-one-sided' || visitor === 'v-fan' ? 'a' : pick(['a', 'b', 'tie', 'both_bad'] as const);
    const modelA = visitor === 'v-fan' ? 'm-alpha' : pick(models);
    const modelB = pick(models.filter((model) => model !== modelA));
    const styled = random() < 0.8;
    const side = () => ({
      len: Math.floor(random() * 900),
      headers: Math.floor(random() * 4),
      lists: Math.floor(random() * 6),
      bold: Math.floor(random() * 5),
    });
    const energy = () => (random() < 0.7 ? { min: random(), max: 1 + random() } : null);
    const view: ViewVote = {
      vote: {
        modelA,
        modelB,
        choice,
        flags: [...(random() < 0.05 ? ['identity_leak'] : []), ...(random() < 0.03 ? ['served_model_mismatch'] : [])],
        style: styled ? { a: side(), b: side() } : undefined,
        energy: { a: energy(), b: energy() },
      },
      language: pick(['fr', 'en', 'oc', null]),
      mode: pick(['random', 'custom']),
      categories: random() < 0.5 ? [] : [pick(['science', 'cooking', 'law']), ...(random() < 0.3 ? ['code'] : [])],
    };
    const facts: VoteFacts = {
      duelId: `duel-${index}`,
      createdAt: new Date(clock).toISOString(),
      source: random() < 0.9 ? 'arena' : 'comparia',
      visitor,
      client: scripted ? 'c-bot' : random() < 0.1 ? null : pick(['c-school', 'c-home', 'c-cafe']),
      choice,
      modelA,
      modelB,
      votedAfterMs: random() < 0.1 ? null : Math.floor(random() * 10_000),
      review: random() < 0.03 ? 'count' : random() < 0.03 ? 'exclude' : null,
    };
    return { view, facts };
  });
}

describe('vote columns', () => {
  it.each([1, 2, 3])('flag the votes the object rules flag, vote for vote (history %i)', (seed) => {
    const votes = history(seed, 3000);
    const kept = new RankingVoteColumns();
    for (const vote of votes) kept.put(vote, vote.facts.duelId);
    const columns = kept.view();
    const rules = { ...DEFAULT_INTEGRITY_RULES, burstVotesPerMinute: 20 };
    const bits = integrityFlagBits(columns, rules);
    const found = integrityFlags(
      votes.map((vote) => vote.facts),
      rules,
    );
    let flagged = 0;
    votes.forEach((vote, row) => {
      const expected = rankingFlags(vote.facts.review, found.get(vote.facts.duelId)).reduce(
        (sum, flag) => sum | INTEGRITY_FLAG_BIT[flag],
        0,
      );
      expect(bits[row], vote.facts.duelId).toBe(expected);
      if (expected !== 0) flagged++;
    });
    // Every rule fired somewhere in this history.
    for (const [name, flag] of Object.entries(INTEGRITY_FLAG_BIT))
      expect(
        bits.some((value) => (value & flag) !== 0),
        name,
      ).toBe(true);
    expect(flagged).toBeLessThan(votes.length);
  });

  it('rank every view as the vote objects do', () => {
    const votes = history(4, 4000);
    const kept = new RankingVoteColumns();
    for (const vote of votes) kept.put(vote, vote.facts.duelId);
    const columns = kept.view();
    const bits = integrityFlagBits(columns, DEFAULT_INTEGRITY_RULES);
    const found = integrityFlags(
      votes.map((vote) => vote.facts),
      DEFAULT_INTEGRITY_RULES,
    );
    const objects = votes.map(({ view, facts }) => ({
      ...view,
      vote: { ...view.vote, flags: [...(view.vote.flags ?? []), ...rankingFlags(facts.review, found.get(facts.duelId))] },
    }));
    const views: ViewDefinition[] = [
      { language: null, mode: null, category: null },
      { language: 'fr', mode: null, category: null },
      { language: null, mode: 'custom', category: null },
      { language: null, mode: null, category: 'code' },
    ].flatMap((filter) => (['plain', 'controlled'] as const).map((style) => ({ key: viewKey({ style, ...filter }), style, ...filter })));
    const expected = computeViews(objects, views);
    const actual = computeViewsFromColumns(columns, countedVotes(columns, bits), views);
    for (const view of views) {
      expect(actual.get(view.key)!.nVotesUsed).toBeGreaterThan(100);
      expect(actual.get(view.key), view.key).toEqual(expected.get(view.key));
    }
  });

  it('give, updated in place, the columns of the final votes read at once', () => {
    const votes = history(5, 1500);
    // The last version of each vote: another language, topics beyond the 32 of the mask, a review, a long answer.
    const finalOf = (vote: (typeof votes)[number], index: number) =>
      index % 3 === 0
        ? {
            view: {
              ...vote.view,
              language: 'de',
              categories: [`topic-${index % 40}`, 'code'],
              vote: {
                ...vote.view.vote,
                style: vote.view.vote.style && { ...vote.view.vote.style, a: { ...vote.view.vote.style.a, len: 70_000 + index } },
              },
            },
            facts: { ...vote.facts, review: 'exclude' as const },
          }
        : vote;
    const updated = new RankingVoteColumns();
    for (const vote of votes) expect(updated.put(vote, vote.facts.duelId)).toBe('added');
    votes.forEach((vote, index) => {
      if (index % 3 === 0) expect(updated.put(finalOf(vote, index), vote.facts.duelId)).toBe('updated');
    });
    const once = new RankingVoteColumns();
    votes.forEach((vote, index) => once.put(finalOf(vote, index), vote.facts.duelId));
    expect(updated.length).toBe(votes.length);
    expect(comparable(updated.view())).toEqual(comparable(once.view()));
    expect(updated.view().style).toBeInstanceOf(Uint32Array);
    expect(
      categoriesOf(updated.view(), 0)
        .map((index) => updated.view().categories[index])
        .sort(),
    ).toEqual(['code', 'topic-0']);
    // Energy is a vote's own and never changes: counted once however often the vote comes.
    expect(updated.meanEnergyByModel()).toEqual(once.meanEnergyByModel());
    expect(integrityFlagBits(updated.view(), DEFAULT_INTEGRITY_RULES)).toEqual(integrityFlagBits(once.view(), DEFAULT_INTEGRITY_RULES));
  });
});

describe('a vote the columns refuse', () => {
  it('leaves no trace: the next vote takes the row it would have had', () => {
    const columns = new RankingVoteColumns();
    const vote = (flags: string[]) => ({
      view: { vote: { modelA: 'm-a', modelB: 'm-b', choice: 'a' as const, flags }, language: null, mode: 'random', categories: [] },
    });
    expect(columns.put(vote([]), 'duel-1')).toBe('added');
    expect(() => columns.put(vote(['not_a_flag']), 'duel-2')).toThrow(/flag/);
    expect(columns.has('duel-2')).toBe(false);
    expect(columns.put(vote([]), 'duel-3')).toBe('added');
    expect(columns.put(vote([]), 'duel-2')).toBe('added');
    expect(columns.length).toBe(3);
  });
});

/** Columns as plain arrays, categories as names: two columns built in another order of names compare equal. */
function comparable(columns: VoteColumns) {
  const rows = Array.from({ length: columns.length }, (_, row) => ({
    models: [columns.models[columns.modelA[row]!], columns.models[columns.modelB[row]!]],
    choice: columns.choice[row],
    flags: columns.baseFlags[row],
    style: columns.hasStyle[row] ? [...columns.style.subarray(row * 8, row * 8 + 8)] : null,
    language: columns.language[row]! >= 0 ? columns.languages[columns.language[row]!] : null,
    mode: columns.modes[columns.mode[row]!],
    categories: categoriesOf(columns, row)
      .map((index) => columns.categories[index])
      .sort(),
    arena: columns.arena[row],
    createdAtMs: columns.createdAtMs[row],
    votedAfterMs: columns.votedAfterMs[row],
    review: columns.review[row],
  }));
  return { rows, visitors: columns.visitors, clients: columns.clients };
}
