import type { FlaggedVotes, LeaderboardBody } from '@agora/contract';
import { type Runtime, systemRuntime } from '../src/services/ports/runtime';
import { type ArenaClient, TEST_MODELS, type TestArena } from './test-arena';

/*
 * The red team's paced campaign of issue 31, and what it takes to run it on a real arena over HTTP:
 * a clock the caller moves, browsers behind the trusted proxy, the main board and the admin API's
 * flags. Shared by vote-campaign.test.ts and `npm run load -- --scenario campaign`
 * (scripts/load-campaign.ts).
 */

export const CAMPAIGN_ADMIN_TOKEN = 'campaign-admin-token-0123';

/** The campaign as the red team ran it. */
export const PACED_CAMPAIGN = {
  /** The smallest test model. */
  target: 'kestrix-8b',
  /** One address for the whole campaign (a fresh cookie per duel). */
  address: '203.0.113.66',
  votes: 100,
  /**
   * Each vote this long after the answers end: past `too_fast`, whose reading time for the fake
   * upstream's two answers (about 250 characters) is 4.2 s. (2.1 s, past the 2 s floor of old, is now flagged.)
   */
  readMs: 4_500,
  /** Every this-many-th vote goes against the target, to end `favours_one_model`'s runs. */
  againstEvery: 20,
  /** At most this many votes a minute: under `address_burst` (60). */
  votesPerMinute: 55,
} as const;

export type Choice = 'a' | 'b' | 'tie';
/** A vote given the duel's two models, or undefined for no vote. */
export type Chooser = (modelA: string, modelB: string) => Choice | undefined;

/**
 * The arena of a campaign: the admin API on (for the flags), the loopback a trusted proxy (so that
 * X-Forwarded-For gives each client its address), every model shown on the board, and custom-mode
 * votes on the main board or in their own view.
 */
export function campaignEnvironment(customOnMain: boolean): Record<string, string> {
  return {
    AGORA_ADMIN_TOKEN: CAMPAIGN_ADMIN_TOKEN,
    AGORA_TRUSTED_PROXIES: '127.0.0.1,::1',
    AGORA_LEADERBOARD_MIN_VOTES: '1',
    AGORA_LEADERBOARD_CUSTOM_ON_MAIN: customOnMain ? '1' : '0',
  };
}

/** The arena's clock, ahead of the system's by what the caller has waited: waits cost no wall time. */
export class TestClock {
  aheadMs = 0;
  readonly runtime: Runtime = { ...systemRuntime, now: () => new Date(Date.now() + this.aheadMs) };
}

/** Starts a duel as `client` and reads its answers to the end; the duel's id. */
export async function playDuel(client: ArenaClient, body: object): Promise<string> {
  const created = await client.request('POST', '/api/v1/duels', { prompt: 'Une question', ...body });
  if (created.status !== 201) throw new Error(`POST /api/v1/duels answered ${created.status}: ${JSON.stringify(created.json)}`);
  const id = created.json.id as string;
  await client.stream(id);
  return id;
}

/**
 * Votes on duel `id` as `client` what `choose` picks given its models, which it reads from the store
 * (the red team told them apart by asking; an honest visitor by reading). False when it chose no vote.
 */
export async function voteOn(harness: TestArena, client: ArenaClient, id: string, choose: Chooser): Promise<boolean> {
  const duel = await harness.arena.store.duels.findById(id);
  if (!duel) throw new Error(`duel ${id} is not in the store`);
  const choice = choose(duel.modelA, duel.modelB);
  if (choice === undefined) return false;
  const voted = await client.request('POST', `/api/v1/duels/${id}/vote`, { choice });
  if (voted.status !== 200) throw new Error(`vote on ${id} answered ${voted.status}: ${JSON.stringify(voted.json)}`);
  return true;
}

const OTHER_MODELS = TEST_MODELS.map((model) => model.id).filter((id) => id !== PACED_CAMPAIGN.target);

/** The campaign's `index`-th custom duel: the target against each other model in turn. */
export function campaignDuelBody(index: number): object {
  return { mode: 'custom', models: [PACED_CAMPAIGN.target, OTHER_MODELS[index % OTHER_MODELS.length]!] };
}

/** The campaign's `index`-th vote: for the target, but every 20th against it; none on a duel without it. */
export function campaignChooser(index: number): Chooser {
  const against = index % PACED_CAMPAIGN.againstEvery === PACED_CAMPAIGN.againstEvery - 1;
  return (modelA, modelB) => {
    if (modelA !== PACED_CAMPAIGN.target && modelB !== PACED_CAMPAIGN.target) return undefined;
    return (modelA === PACED_CAMPAIGN.target) !== against ? 'a' : 'b';
  };
}

/** The main board, refreshed now. */
export async function mainBoard(harness: TestArena): Promise<LeaderboardBody> {
  await harness.arena.leaderboards.refresh();
  return (await harness.client.request('GET', '/api/v1/leaderboard')).json as LeaderboardBody;
}

/** The flags of each flagged vote, by duel id, as the admin API lists them (newest first, at most 1,000). */
export async function flaggedVotes(harness: TestArena): Promise<Map<string, string[]>> {
  const answer = await harness.client.request('GET', '/api/v1/admin/votes/flagged?limit=1000', undefined, {
    authorization: `Bearer ${CAMPAIGN_ADMIN_TOKEN}`,
  });
  if (answer.status !== 200) throw new Error(`GET /api/v1/admin/votes/flagged answered ${answer.status}`);
  return new Map((answer.json as FlaggedVotes).votes.map((vote) => [vote.duel_id, vote.flags]));
}
