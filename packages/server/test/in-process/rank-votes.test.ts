import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';
import { RankingError } from '../../src/domain/ranking';
import { rankVoteTable, storeVoteTable } from '../../src/services/rank-votes';
import { TEST_MODELS } from '../test-arena';
import { type InProcessArena, startInProcessArena } from './harness';

/**
 * Ranking the store's votes in process (services/rank-votes.ts, what `agora leaderboard` ranks
 * without `--votes`): votes played and cast through the routes, read back as a vote table with the
 * integrity rules and reviewers' decisions applied, then ranked. One arena, one history of votes,
 * played once: every test only reads it.
 */

const TOKEN = 'rank-votes-admin-token-000';
const [zephyrine, brontal, miravel] = TEST_MODELS.map((model) => model.id) as [string, string, string];
/** How long an honest visitor reads before voting: past the rules' minimum (2 s). */
const READ_MS = 5_000;
const rules = loadConfig({ DATABASE_URL: 'sqlite::memory:' }).integrity;

let harness: InProcessArena;
/** The pair of models the arena drew for the one random-mode vote. */
let randomPair: string[];
let hasty: string;

beforeAll(async () => {
  harness = await startInProcessArena({ AGORA_ADMIN_TOKEN: TOKEN });
  // Zephyrine beats Brontal, which beats Miravel; Miravel and Zephyrine tie: one strongly connected whole.
  for (const [winner, loser] of [
    [zephyrine, brontal],
    [zephyrine, brontal],
    [brontal, miravel],
    [brontal, miravel],
  ] as const)
    await customVote([winner, loser], winner, READ_MS);
  await customVote([miravel, zephyrine], 'tie', READ_MS);
  // Cast at once: flagged too fast, and left out.
  hasty = await customVote([miravel, zephyrine], miravel, 0);
  // Cast at once, then counted by a reviewer.
  const counted = await customVote([miravel, brontal], 'tie', 0);
  await reviewVote(counted, 'count');
  // Honest, then excluded by a reviewer.
  const excluded = await customVote([miravel, zephyrine], miravel, READ_MS);
  await reviewVote(excluded, 'exclude');
  // A vote on a pair the arena drew.
  const visitor = harness.visitor();
  const created = await visitor.request('POST', '/api/v1/duels', { prompt: 'Bonjour, une question ?', mode: 'random' });
  await visitor.stream(created.json.id);
  harness.runtime.advance(READ_MS);
  await visitor.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'tie' });
  const duel = (await harness.arena.store.duels.findById(created.json.id))!;
  randomPair = [duel.modelA, duel.modelB].sort();
});
afterAll(() => harness.close());

/** Plays a custom duel of these models, reads for `readMs` on the test clock, and votes for `winner` (whatever side it drew) or a tie. */
async function customVote(models: [string, string], winner: string, readMs: number): Promise<string> {
  const visitor = harness.visitor();
  const { id } = await visitor.playedDuel(models);
  const duel = (await harness.arena.store.duels.findById(id))!;
  harness.runtime.advance(readMs);
  const choice = winner === 'tie' ? 'tie' : duel.modelA === winner ? 'a' : 'b';
  const vote = await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice });
  if (vote.status !== 200) throw new Error(`vote refused: ${JSON.stringify(vote.json)}`);
  return id;
}

async function reviewVote(duelId: string, decision: 'count' | 'exclude'): Promise<void> {
  const answer = await harness
    .visitor()
    .request('PUT', `/api/v1/admin/votes/${duelId}`, { decision, reviewer: 'alice' }, { authorization: `Bearer ${TOKEN}` });
  if (answer.status !== 200) throw new Error(`review refused: ${JSON.stringify(answer.json)}`);
}

/** The votes of a table as sorted "model model" pairs, to compare without caring for sides. */
function pairsOf(table: Awaited<ReturnType<typeof storeVoteTable>>): string[] {
  return Array.from(table.modelA, (a, index) => [table.models[a]!, table.models[table.modelB[index]!]!].sort().join(' ')).sort();
}

describe('the store’s votes as a vote table, in process', () => {
  it('keeps the main board’s votes: a randomly paired one, and no vote of a duel whose models the visitor chose', async () => {
    const table = await storeVoteTable(harness.arena.store, rules);
    expect(pairsOf(table)).toEqual([randomPair.join(' ')]);
  });

  it('with custom duels on the main board, leaves out a vote the rules flag and one a reviewer excluded, and counts one a reviewer counted', async () => {
    const table = await storeVoteTable(harness.arena.store, rules, { customModeOnMainBoard: true });
    const pair = (left: string, right: string) => [left, right].sort().join(' ');
    expect(pairsOf(table)).toEqual(
      [
        pair(zephyrine, brontal),
        pair(zephyrine, brontal),
        pair(brontal, miravel),
        pair(brontal, miravel),
        pair(miravel, zephyrine),
        pair(miravel, brontal),
        randomPair.join(' '),
      ].sort(),
    );
  });

  it('judges with the rules it is given: with no minimum time, the hasty vote counts', async () => {
    const strict = await storeVoteTable(harness.arena.store, rules, { customModeOnMainBoard: true });
    const lenient = await storeVoteTable(harness.arena.store, { ...rules, minVoteMs: 0 }, { customModeOnMainBoard: true });
    const hastyDuel = (await harness.arena.store.duels.findById(hasty))!;
    expect(pairsOf(lenient)).toEqual([...pairsOf(strict), [hastyDuel.modelA, hastyDuel.modelB].sort().join(' ')].sort());
  });
});

describe('ranking the store’s votes, in process', () => {
  const customTable = () => storeVoteTable(harness.arena.store, rules, { customModeOnMainBoard: true });

  it('ranks the model that won its duels first and the one that lost them last', async () => {
    const board = rankVoteTable(await customTable());
    const ranked = board.rows.filter((row) => [zephyrine, brontal, miravel].includes(row.model));
    expect(ranked.map((row) => row.model)).toEqual([zephyrine, brontal, miravel]);
    // Ranked, not provisional; the random-mode vote's models may rank between them.
    expect(ranked.every((row) => row.rank !== null && !row.provisional)).toBe(true);
    const ranks = ranked.map((row) => row.rank!);
    expect(ranks).toEqual([...ranks].sort((left, right) => left - right));
    expect(new Set(ranks).size).toBe(3);
    // The random-mode vote is a tie too, perhaps of one of these models.
    const randomTie = (model: string) => (randomPair.includes(model) ? 1 : 0);
    expect(ranked.find((row) => row.model === zephyrine)).toMatchObject({ wins: 2, losses: 0, ties: 1 + randomTie(zephyrine) });
    expect(ranked.find((row) => row.model === miravel)).toMatchObject({ wins: 0, losses: 2, ties: 2 + randomTie(miravel) });
  });

  it('puts an anchored model at the asked rating, and refuses an anchor on a model with no vote', async () => {
    const table = await customTable();
    const anchored = rankVoteTable(table, { anchor: { model: miravel, rating: 1000 } });
    expect(anchored.rows.find((row) => row.model === miravel)?.rating).toBeCloseTo(1000, 6);
    expect(() => rankVoteTable(table, { anchor: { model: 'nobody-1b', rating: 1000 } })).toThrow(RankingError);
  });

  it('draws the same bootstrap intervals from the same seed', async () => {
    const table = await customTable();
    const intervals = (seed: number) => rankVoteTable(table, { bootstrapRounds: 50, seed }).rows.map((row) => [row.ciLow, row.ciHigh]);
    const once = intervals(3);
    expect(rankVoteTable(table, { bootstrapRounds: 50, seed: 3 }).uncertainty).toBe('bootstrap');
    expect(intervals(3)).toEqual(once);
    expect(intervals(4)).not.toEqual(once);
  });
});
