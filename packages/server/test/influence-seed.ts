import { readFileSync } from 'node:fs';
import type { Store } from '../src/db/unit-of-work';
import { INFLUENCE_RANKING_FIXTURES } from './reference-fixtures';

export interface InfluenceFixtureVote {
  model_a: string;
  model_b: string;
  outcome: 'model_a' | 'model_b' | 'tie';
  visitor: string;
}
const CHOICE = { model_a: 'a', model_b: 'b', tie: 'tie' } as const;

/** The influence oracle's 620 votes (docs/ranking.md#rank-influence): 40 honest visitors and a 40-vote push for m4. */
export const INFLUENCE_VOTES = JSON.parse(readFileSync(`${INFLUENCE_RANKING_FIXTURES}votes.json`, 'utf8')) as InfluenceFixtureVote[];

/**
 * Writes `rows` into the store as voted duels, numbered from `from`: each honest visitor its own
 * address, and the push from one address behind a fresh cookie per vote (as the CLI's test): the
 * console's influence test and its page's browser test.
 */
export async function seedInfluenceVotes(store: Store, rows: readonly InfluenceFixtureVote[] = INFLUENCE_VOTES, from = 0): Promise<void> {
  for (const [offset, vote] of rows.entries()) {
    const index = from + offset;
    const duelId = `duel-${String(index).padStart(5, '0')}-influence`;
    const push = vote.visitor === 'push';
    const createdAt = new Date(Date.UTC(2026, 10, 1) + index * 600_000).toISOString();
    await store.duels.createWithFirstTurn(
      {
        id: duelId,
        visitorHash: push ? `push-cookie-${index}` : vote.visitor,
        mode: 'random',
        modelA: vote.model_a,
        modelB: vote.model_b,
        chosenModels: null,
        locale: 'fr',
        status: 'ready',
        turnCount: 1,
        createdAt,
      },
      'p',
    );
    await store.feedback.insertVote({
      duelId,
      choice: CHOICE[vote.outcome],
      modelA: vote.model_a,
      modelB: vote.model_b,
      tagsA: [],
      tagsB: [],
      commentA: null,
      commentB: null,
      identityLeak: false,
      mode: 'random',
      locale: 'fr',
      createdAt,
      clientHash: push ? 'push-address' : `address-${vote.visitor}`,
    });
  }
}
