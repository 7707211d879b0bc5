import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaderboardBody } from '@agora/contract';
import { DIALECTS } from './test-db';
import { seededRandom } from './seeded-random';
import {
  type Chooser,
  PACED_CAMPAIGN,
  TestClock,
  campaignChooser,
  campaignDuelBody,
  campaignEnvironment,
  flaggedVotes,
  mainBoard,
  playDuel,
  voteOn,
} from './paced-campaign';
import { ClientAt, TEST_MODELS, type TestArena, startTestArena } from './test-arena';

/*
 * The red team's paced campaign of issue 31, on the default rules: one address, a fresh cookie per
 * duel, custom mode naming the target, a vote 4.5 s after the answers end (past `too_fast`), at most
 * 55 votes a minute (under `address_burst`), every 20th vote against the target. A clock the test
 * moves stands in for the waits, so the campaign's pace costs no wall time. `npm run load --
 * --scenario campaign` runs the same campaign among honest visitors (test/paced-campaign.ts).
 */

const TARGET = PACED_CAMPAIGN.target;

const sizeOf = (id: string) => TEST_MODELS.find((model) => model.id === id)!.params;

// Twice: by default, where custom-mode votes have their own view, and with them on the main board
// (AGORA_LEADERBOARD_CUSTOM_ON_MAIN=1), where the per-vote rules and the influence bound must hold it alone.
const SETTINGS = DIALECTS.flatMap((dialect) => [
  { dialect, name: dialect.name, customOnMain: false },
  { dialect, name: `${dialect.name}, custom on main`, customOnMain: true },
]);

describe.each(SETTINGS)('vote integrity: the paced, dodging campaign ($name)', ({ dialect, name, customOnMain }) => {
  let harness: TestArena;
  const clock = new TestClock();
  const honestDuels: string[] = [];
  const board = () => mainBoard(harness);

  /** Plays a duel as `client` and votes `choose(duel)` after `readMs` of the test clock. */
  async function playAndVote(client: ClientAt, body: object, readMs: number, choose: Chooser): Promise<string> {
    const id = await playDuel(client, body);
    clock.aheadMs += readMs;
    expect(await voteOn(harness, client, id, choose)).toBe(true);
    return id;
  }

  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      runtime: clock.runtime,
      environment: campaignEnvironment(customOnMain),
    });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    // Honest visitors at human pace: 60, each from its own /24 with its own cookie, four duels each on
    // random pairs, 8 to 40 s of reading; they prefer the bigger model four times in five, else call it
    // a tie. The target, the smallest, is last.
    const random = seededRandom(31);
    for (let index = 0; index < 60; index++) {
      const visitor = new ClientAt(harness.baseUrl, `198.51.${index}.7`);
      for (let duel = 0; duel < 4; duel++) {
        const readMs = 8_000 + Math.floor(random() * 32_000);
        const tie = random() < 0.2;
        honestDuels.push(
          await playAndVote(visitor, { mode: 'random' }, readMs, (a, b) => (tie ? 'tie' : sizeOf(a) > sizeOf(b) ? 'a' : 'b')),
        );
      }
    }
  }, 240_000);
  afterAll(() => harness.close());

  it('moves the target by less than its interval’s half-width and changes no rank; honest visitors are flagged at most 1 %', async () => {
    const before = await board();
    const ranks = (body: LeaderboardBody) => Object.fromEntries(body.models.map((row) => [row.model, row.rank]));
    const targetBefore = before.models.find((row) => row.model === TARGET)!;
    for (let index = 0; index < PACED_CAMPAIGN.votes; index++) {
      const script = new ClientAt(harness.baseUrl, PACED_CAMPAIGN.address);
      await playAndVote(script, campaignDuelBody(index), PACED_CAMPAIGN.readMs, campaignChooser(index));
    }
    const after = await board();
    const targetAfter = after.models.find((row) => row.model === TARGET)!;
    const halfWidth = (targetBefore.ci_high - targetBefore.ci_low) / 2;
    console.info(
      `campaign (${name}): target ${targetBefore.rating.toFixed(1)} → ${targetAfter.rating.toFixed(1)} (±${halfWidth.toFixed(1)}), rank ${targetBefore.rank} → ${targetAfter.rank}`,
    );
    expect(Math.abs(targetAfter.rating - targetBefore.rating)).toBeLessThan(halfWidth);
    expect(ranks(after)).toEqual(ranks(before));
    // The campaign's votes are in their own view, not on the main board.
    const custom = (await harness.client.request('GET', '/api/v1/leaderboard?mode=custom')).json as LeaderboardBody;
    expect(custom.n_votes).toBeGreaterThan(0);

    const flaggedDuels = await flaggedVotes(harness);
    const honestFlagged = honestDuels.filter((id) => flaggedDuels.has(id)).length;
    console.info(
      `campaign (${name}): honest votes flagged ${honestFlagged}/${honestDuels.length}, campaign votes flagged ${flaggedDuels.size - honestFlagged}/100`,
    );
    expect(honestFlagged / honestDuels.length).toBeLessThanOrEqual(0.01);
  }, 240_000);
});
