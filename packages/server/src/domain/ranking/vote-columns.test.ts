import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/seeded-random';
import {
  DEFAULT_INTEGRITY_RULES,
  INTEGRITY_FLAG_BIT,
  type IntegrityRules,
  type VoteFacts,
  integrityFlagBits,
  integrityRuleBits,
} from '../arena/vote-integrity';
import { type ViewDefinition, computeViewsFromColumns, countedVotes, viewKey } from './leaderboard-views';
import { RankingVoteColumns, type ViewVote, type VoteColumns, categoriesOf } from './vote-columns';
import { type PairwiseVote, type StyleCounts, buildVoteTable, computeLeaderboard } from '.';

/** A random history with every rule and flag in play, for the columns' bookkeeping. */
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

const {
  too_fast: FAST,
  one_sided: ONE_SIDED,
  address_burst: BURST,
  favours_one_model: FAVOURS,
  excluded_by_reviewer: EXCLUDED,
} = INTEGRITY_FLAG_BIT;

/** Style counts of both sides, the longer answer on side B. */
const style = (len: number): { a: StyleCounts; b: StyleCounts } => ({
  a: { len, headers: 1, lists: 0, bold: 2 },
  b: { len: 2 * len, headers: 0, lists: 3, bold: 0 },
});

/**
 * Votes of several languages, modes and topics, with and without style counts: some flagged from
 * the store, by the rules or by a reviewer (`counted`: whether the vote should count).
 */
const VIEW_VOTES: { view: ViewVote; facts?: Partial<VoteFacts>; counted: boolean }[] = [
  {
    view: { vote: { modelA: 'x', modelB: 'y', choice: 'a', style: style(100) }, language: 'fr', mode: 'random', categories: ['code'] },
    counted: true,
  },
  {
    view: { vote: { modelA: 'y', modelB: 'z', choice: 'b', style: style(200) }, language: 'en', mode: 'random', categories: [] },
    counted: true,
  },
  {
    view: { vote: { modelA: 'x', modelB: 'z', choice: 'tie' }, language: 'fr', mode: 'custom', categories: ['code', 'law'] },
    counted: true,
  },
  {
    view: {
      vote: { modelA: 'x', modelB: 'y', choice: 'b', flags: ['identity_leak'], style: style(300) },
      language: 'fr',
      mode: 'random',
      categories: [],
    },
    counted: false,
  },
  {
    view: { vote: { modelA: 'y', modelB: 'x', choice: 'a', style: style(400) }, language: null, mode: 'custom', categories: ['law'] },
    facts: { votedAfterMs: 100 },
    counted: false,
  },
  {
    view: {
      vote: { modelA: 'z', modelB: 'x', choice: 'both_bad', style: style(500) },
      language: 'fr',
      mode: 'random',
      categories: ['code'],
    },
    facts: { review: 'exclude' },
    counted: false,
  },
  {
    view: { vote: { modelA: 'z', modelB: 'y', choice: 'a', style: style(600) }, language: 'fr', mode: 'custom', categories: [] },
    facts: { votedAfterMs: 100, review: 'count' },
    counted: true,
  },
  {
    view: {
      vote: { modelA: 'y', modelB: 'z', choice: 'a', flags: ['served_model_mismatch'], style: style(700) },
      language: 'en',
      mode: 'custom',
      categories: ['code'],
    },
    counted: false,
  },
];

describe('vote columns', () => {
  it('flag, over the kept columns, what each rule finds, then apply the reviewers’ decisions', () => {
    const rules: IntegrityRules = { minVoteMs: 2000, oneSidedVotes: 4, burstVotesPerMinute: 3, favouriteVotes: 3 };
    let next = 0;
    // A vote cast 10 s after its answers, a minute after the previous one, by a new visitor from a new address.
    const vote = (overrides: Partial<VoteFacts> = {}) => {
      next += 1;
      const facts: VoteFacts = {
        duelId: `d${next}`,
        createdAt: new Date(Date.UTC(2026, 11, 1, 0, next)).toISOString(),
        source: 'arena',
        visitor: `visitor-${next}`,
        client: `client-${next}`,
        choice: 'a',
        modelA: `p${next}`,
        modelB: `q${next}`,
        votedAfterMs: 10_000,
        review: null,
        ...overrides,
      };
      const { modelA, modelB, choice } = facts;
      return { view: { vote: { modelA, modelB, choice }, language: null, mode: 'random', categories: [] }, facts };
    };
    const second = (at: number) => new Date(Date.UTC(2026, 11, 2, 0, 0, at)).toISOString();
    const votes = [
      ...[1, 2, 3, 4].map(() => vote({ visitor: 'lefty' })),
      vote({ votedAfterMs: 1999 }),
      vote({ votedAfterMs: null }),
      // One visitor, `star` picked each time it appears.
      vote({ visitor: 'fan', modelA: 'star', modelB: 'm7', choice: 'a' }),
      vote({ visitor: 'fan', modelA: 'm7', modelB: 'star', choice: 'b' }),
      vote({ visitor: 'fan', modelA: 'star', modelB: 'm7', choice: 'a' }),
      // Four votes of one address within a minute.
      ...[0, 20, 40, 59].map((at, index) => vote({ client: 'school', createdAt: second(at), choice: index % 2 ? 'a' : 'b' })),
      vote({ source: 'comparia', votedAfterMs: 0 }),
      vote({ votedAfterMs: 0, review: 'count' }),
      vote({ review: 'exclude' }),
      vote({ client: null, votedAfterMs: 0, review: 'exclude' }),
    ];
    const kept = new RankingVoteColumns();
    for (const input of votes) kept.put(input, input.facts.duelId);
    const fill = (count: number, bit: number) => Array<number>(count).fill(bit);
    const rulesFound = [...fill(4, ONE_SIDED), FAST, 0, ...fill(3, FAVOURS), ...fill(4, BURST), 0, FAST, 0, FAST];
    expect([...integrityRuleBits(kept.view(), rules)]).toEqual(rulesFound);
    expect([...integrityFlagBits(kept.view(), rules)]).toEqual([...rulesFound.slice(0, 14), 0, EXCLUDED, EXCLUDED]);

    // A visitor erases the first of `fan`'s votes: it leaves the board and the rules' judgement of the others,
    // which are judged as a full read without it judges them (two votes for `star` are under the bound of 3).
    expect(kept.erase('d7')).toBe(true);
    expect(kept.erase('d7')).toBe(true);
    expect(kept.erase('no-such-duel')).toBe(false);
    expect({ length: kept.length, erased: kept.erased }).toEqual({ length: 17, erased: 1 });
    const withoutIt = new RankingVoteColumns();
    for (const input of votes) if (input.facts.duelId !== 'd7') withoutIt.put(input, input.facts.duelId);
    const afterErasure = [...integrityFlagBits(kept.view(), rules)];
    expect(afterErasure[6]).toBe(EXCLUDED);
    expect([...afterErasure.slice(0, 6), ...afterErasure.slice(7)]).toEqual([...integrityFlagBits(withoutIt.view(), rules)]);
  });

  it('rank each view on the counted votes it selects, in their order, with style only where controlled', () => {
    const votes = VIEW_VOTES;
    const kept = new RankingVoteColumns();
    votes.forEach(({ view, facts }, index) => {
      const judged: VoteFacts = {
        duelId: `d${index}`,
        createdAt: new Date(Date.UTC(2026, 11, 1, index)).toISOString(),
        source: 'arena',
        visitor: `visitor-${index}`,
        client: null,
        choice: view.vote.choice,
        modelA: view.vote.modelA,
        modelB: view.vote.modelB,
        votedAfterMs: 10_000,
        review: null,
        ...facts,
      };
      kept.put({ view, facts: judged }, judged.duelId);
    });
    const columns = kept.view();
    const counted = countedVotes(columns, integrityFlagBits(columns, DEFAULT_INTEGRITY_RULES));
    expect([...counted]).toEqual(votes.map((vote) => (vote.counted ? 1 : 0)));
    // The votes each view ranks, by row: 3, 4, 5 and 7 are flagged, 2 has no style counts.
    const selected: Record<string, [filter: Partial<ViewDefinition>, plain: number[], controlled: number[]]> = {
      overall: [{}, [0, 1, 2, 6], [0, 1, 6]],
      french: [{ language: 'fr' }, [0, 2, 6], [0, 6]],
      custom: [{ mode: 'custom' }, [2, 6], [6]],
      code: [{ category: 'code' }, [0, 2], [0]],
    };
    const views = Object.values(selected).flatMap(([filter]) =>
      (['plain', 'controlled'] as const).map((style): ViewDefinition => {
        const definition = { language: null, mode: null, category: null, ...filter, style };
        return { ...definition, key: viewKey(definition) };
      }),
    );
    const boards = computeViewsFromColumns(columns, counted, views);
    const outcome = { a: 'model_a', b: 'model_b', tie: 'tie', both_bad: 'both_bad' } as const;
    const match = (row: number, withStyle: boolean): PairwiseVote => {
      const { modelA, modelB, choice, style: counts } = votes[row]!.view.vote;
      return { modelA, modelB, outcome: outcome[choice], style: withStyle ? counts : undefined };
    };
    for (const [filter, plain, controlled] of Object.values(selected)) {
      const key = (style: 'plain' | 'controlled') => viewKey({ style, ...filter });
      expect(boards.get(key('plain')), key('plain')).toEqual(computeLeaderboard(buildVoteTable(plain.map((row) => match(row, false)))));
      expect(boards.get(key('controlled')), key('controlled')).toEqual(
        computeLeaderboard(buildVoteTable(controlled.map((row) => match(row, true))), { style: true }),
      );
    }
    expect(boards.get(viewKey({ style: 'plain' }))!.nVotesUsed).toBe(4);
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
