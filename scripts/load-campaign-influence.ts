/**
 * The influence part of `npm run load -- --scenario campaign` (scripts/load-campaign.ts): once the
 * campaign has voted, the target's influence list by address hash, which the campaign's one address
 * should top although the four integrity rules miss it (issue 34's acceptance).
 */
import { openStore } from '../packages/server/src/composition/store-access';
import { loadConfig } from '../packages/server/src/config/config';
import type { GroupInfluence } from '../packages/server/src/domain/ranking/influence';
import { storeInfluence } from '../packages/server/src/services/rank-influence';
import { PACED_CAMPAIGN, campaignEnvironment } from '../packages/server/test/paced-campaign';
import type { TestArena } from '../packages/server/test/test-arena';

/** The target's most influential address groups, and the campaign's address hash. */
export interface CampaignInfluence {
  top: GroupInfluence[];
  campaignAddress: string | null;
}

const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;

/**
 * Rank influence by address hash on the store's main board with every vote counted
 * (docs/ranking.md#rank-influence), as `agora influence --by address --model TARGET --include-flagged`
 * prints it, and the campaign's own address hash.
 */
export async function influenceOnTarget(
  harness: TestArena,
  customOnMain: boolean,
  campaignDuels: readonly string[],
): Promise<CampaignInfluence> {
  const location = harness.store.location;
  const databaseUrl = location.kind === 'sqlite' ? `sqlite:${location.path}` : location.url;
  const config = loadConfig({ ...campaignEnvironment(customOnMain), DATABASE_URL: databaseUrl });
  const store = await openStore(config);
  try {
    const campaign = new Set(campaignDuels);
    const records = await store.feedback.listRankingVotes();
    const campaignAddress = records.find((record) => campaign.has(record.duelId))?.clientHash ?? null;
    const report = await storeInfluence(store, 'address', {
      top: 5,
      integrity: config.integrity,
      customModeOnMainBoard: config.leaderboard.customModeOnMainBoard,
      // The rules flag this campaign (docs/arena.md#vote-integrity); the list is what it would do had they missed it.
      includeFlagged: true,
    });
    return { top: report.models.find((entry) => entry.model === PACED_CAMPAIGN.target)?.groups ?? [], campaignAddress };
  } finally {
    await store.close();
  }
}

/** The target's influence list by address, the campaign's address marked. */
export function influenceLines(influence: CampaignInfluence | undefined): string[] {
  const { top = [], campaignAddress = null } = influence ?? {};
  return [
    `influence on ${PACED_CAMPAIGN.target} by address, had the rules missed the campaign (every vote counted; leave one address out, one Newton step):`,
    ...top.map(
      (group, index) =>
        `  ${index + 1}. ${group.group === campaignAddress ? 'the campaign' : group.group.slice(0, 12)}: ${signed(group.points)} points, ${group.votes} votes (${group.votesOnModel} on the target), rank ${group.rankBefore} → ${group.rankAfter}${group.alert ? ', alert' : ''}`,
    ),
  ];
}
