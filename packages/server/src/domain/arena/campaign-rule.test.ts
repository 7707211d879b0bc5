import { describe, expect, it } from 'vitest';
import { createSeededRandom, type RandomSource } from '../ranking/seeded-random';
import { DEFAULT_CAMPAIGN_RULE, campaignRows, standardNormalCdf } from './campaign-rule';
import { DEFAULT_INTEGRITY_RULES, integrityFlags, type VoteFacts } from './vote-integrity';

/** Eight models, 60 points apart: the board's ratings, and the strengths honest visitors vote by. */
const RATINGS = Float64Array.from({ length: 8 }, (_, model) => 1000 + 60 * (4 - model));
const winProbability = (winner: number, loser: number) => 1 / (1 + 10 ** ((RATINGS[loser]! - RATINGS[winner]!) / 400));

/** Columns of votes by address: each vote a random pair, a tie one time in five, else won as the ratings predict (or by `bias`). */
function simulate(visitors: { votes: number; bias?: (a: number, b: number) => number | undefined }[], random: RandomSource) {
  const rows: { client: number; a: number; b: number; choice: number }[] = [];
  visitors.forEach((visitor, client) => {
    for (let index = 0; index < visitor.votes; index++) {
      const a = Math.floor(random.nextDouble() * 8);
      const b = (a + 1 + Math.floor(random.nextDouble() * 7)) % 8;
      const forced = visitor.bias?.(a, b);
      const choice = forced ?? (random.nextDouble() < 0.2 ? 2 : random.nextDouble() < winProbability(a, b) ? 0 : 1);
      rows.push({ client, a, b, choice });
    }
  });
  return {
    length: rows.length,
    arena: new Uint8Array(rows.length).fill(1),
    client: Int32Array.from(rows, (row) => row.client),
    choice: Uint8Array.from(rows, (row) => row.choice),
    modelA: Int32Array.from(rows, (row) => row.a),
    modelB: Int32Array.from(rows, (row) => row.b),
  };
}

describe('the campaign rule', () => {
  it('computes the normal distribution function', () => {
    expect(standardNormalCdf(0)).toBeCloseTo(0.5, 7);
    expect(standardNormalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(standardNormalCdf(-3.719016)).toBeCloseTo(1e-4, 6);
  });

  it('flags at most 1 % of honest visitors’ votes, at human volumes up to 400 votes an address (seeded simulation)', () => {
    const random = createSeededRandom(31);
    const honest = Array.from({ length: 2000 }, () => ({ votes: 5 + Math.floor(random.nextDouble() ** 3 * 400) }));
    const columns = simulate(honest, random);
    const flagged = campaignRows(columns, RATINGS, DEFAULT_CAMPAIGN_RULE).length;
    // Measured with this seed: 26 of the votes (0.01 %), the wins of one or two of the 16,000 address-and-model
    // tests, as α = 1e-4 per test predicts.
    expect(flagged / columns.length).toBeLessThanOrEqual(0.01);
    console.info(`campaign rule on honest visitors: ${flagged} of ${columns.length} votes flagged`);
  });

  it('flags a paced campaign that votes against its model one time in five', () => {
    const random = createSeededRandom(7);
    const target = 7; // the lowest rated
    let count = 0;
    const campaign = {
      votes: 100,
      bias: (a: number, b: number) => {
        if (a !== target && b !== target) return undefined;
        count++;
        const forTarget = count % 5 !== 0;
        return (a === target) === forTarget ? 0 : 1;
      },
    };
    const columns = simulate([{ votes: 200 }, campaign], random);
    const flagged = campaignRows(columns, RATINGS, DEFAULT_CAMPAIGN_RULE);
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged.every((row) => columns.client[row] === 1)).toBe(true);
    expect(flagged.every((row) => (columns.choice[row] === 0 ? columns.modelA[row] : columns.modelB[row]) === target)).toBe(true);
  });

  it('is asked by the rules when the board’s ratings are given, and never without them', () => {
    const votes: VoteFacts[] = Array.from({ length: 20 }, (_, index) => ({
      duelId: `d${index}`,
      createdAt: new Date(Date.UTC(2026, 11, 3, index)).toISOString(),
      source: 'arena',
      visitor: `v${index}`,
      client: 'range',
      choice: index % 5 === 4 ? 'b' : 'a',
      modelA: 'weak',
      modelB: `strong${index % 3}`,
      votedAfterMs: 10_000,
      review: null,
    }));
    const rules = { minVoteMs: 0, oneSidedVotes: 1000, burstVotesPerMinute: 1000, favouriteVotes: 1000, campaign: DEFAULT_CAMPAIGN_RULE };
    const ratings = new Map([
      ['weak', 800],
      ['strong0', 1100],
      ['strong1', 1150],
      ['strong2', 1200],
    ]);
    const flags = integrityFlags(votes, rules, ratings);
    expect(flags.size).toBe(16);
    expect([...flags.values()].every((found) => found.includes('campaign'))).toBe(true);
    expect(integrityFlags(votes, rules).size).toBe(0);
  });

  it('leaves a crowded honest /24 alone while a strong model wins ten times in a row as predicted, and flags a campaign from one address', () => {
    const ratings = new Map([
      ['star', 1400],
      ['m1', 1000],
      ['m2', 1000],
      ['m3', 1000],
      ['weak', 900],
    ]);
    const random = createSeededRandom(24);
    const at = (hour: number) => new Date(Date.UTC(2026, 11, 1) + hour * 3600_000).toISOString();
    const duel = (index: number, client: string, modelA: string, modelB: string, choice: VoteFacts['choice'], hour: number): VoteFacts => ({
      duelId: `${client}-${index}`,
      createdAt: at(hour),
      source: 'arena',
      visitor: `${client}-visitor-${index}`,
      client,
      choice,
      modelA,
      modelB,
      votedAfterMs: 10_000,
      review: null,
    });
    // A campus behind one NAT: a new person every hour (under the influence bound), `star` against
    // another model, won as the board predicts (91 %).
    const campus = Array.from({ length: 150 }, (_, index) =>
      duel(index, 'campus', 'star', `m${1 + (index % 3)}`, random.nextDouble() < 1 / (1 + 10 ** (-400 / 400)) ? 'a' : 'b', index),
    );
    const longestRun = campus.reduce(
      (run, vote) => ({ now: vote.choice === 'a' ? run.now + 1 : 0, best: Math.max(run.best, vote.choice === 'a' ? run.now + 1 : 0) }),
      { now: 0, best: 0 },
    ).best;
    expect(longestRun).toBeGreaterThanOrEqual(DEFAULT_INTEGRITY_RULES.favouriteVotes);
    expect(integrityFlags(campus, DEFAULT_INTEGRITY_RULES, ratings).size).toBe(0);
    // The red team's campaign: one address, a fresh cookie per duel, `weak` picked but every 20th time.
    const script = Array.from({ length: 100 }, (_, index) =>
      duel(index, 'script', 'weak', `m${1 + (index % 3)}`, index % 20 === 19 ? 'b' : 'a', 200 + index / 30),
    );
    const flags = integrityFlags(script, DEFAULT_INTEGRITY_RULES, ratings);
    expect(script.filter((vote) => vote.choice === 'a').every((vote) => flags.get(vote.duelId)?.includes('campaign'))).toBe(true);
    expect([...flags.values()].some((found) => found.includes('favours_one_model'))).toBe(false);
  });
});
