import { describe, expect, it } from 'vitest';
import { DIALECTS } from './test-db';
import { bandKeys, promptSignature } from '../src/domain/prompts/prompt-clusters';
import { ArenaClient, type TestArena, startTestArena, until } from './test-arena';

const PROMPT = 'Explique-moi la photosynthèse comme si j’avais dix ans, avec un exemple tiré du potager.';
/** The same prompt pasted with fullwidth letters, a zero-width space, other spacing and one typo. */
const VARIANT = 'ＥＸＰＬＩＱＵＥ-moi  la photosythèse comme\u200b si j’avais dix ans, avec un exemple tiré du potager !';
const OTHER = 'Quelle est la différence entre un contrat à durée déterminée et un CDI en France ?';

describe.each(DIALECTS)('prompt clusters ($name)', (dialect) => {
  async function playAndVote(harness: TestArena, client: ArenaClient, prompt: string): Promise<string> {
    const created = await client.request('POST', '/api/v1/duels', { prompt, locale: 'fr' });
    expect(created.status).toBe(201);
    await client.stream(created.json.id);
    expect((await client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'a' })).status).toBe(200);
    return created.json.id as string;
  }

  const clusterOf = (harness: TestArena, duelId: string) =>
    until(
      () => harness.arena.store.annotations.find(duelId),
      (found) => found?.status === 'done' && typeof found.promptCluster === 'string',
    ).then((found) => found!.promptCluster);

  it('gives each conversation its first prompt’s cluster, matching new prompts against the stored clusters', async () => {
    const harness = await startTestArena(dialect, {
      environment: { AGORA_POSTPROCESS_EVERY_S: '0.1', AGORA_INTEGRITY_MIN_VOTE_S: '0', AGORA_LEADERBOARD_PROMPT_DEDUP: '1' },
    });
    try {
      harness.fake.defaultBehaviour = { tokensPerSecond: 0, text: 'Une réponse courte.' };
      const first = await playAndVote(harness, harness.client, PROMPT);
      const other = await playAndVote(harness, new ArenaClient(harness.baseUrl), OTHER);
      expect(await clusterOf(harness, first)).toBe(first);
      expect(await clusterOf(harness, other)).toBe(other);
      // Later passes: the variants are matched against the two stored clusters, not against each other only.
      const variant = await playAndVote(harness, new ArenaClient(harness.baseUrl), VARIANT);
      const again = await playAndVote(harness, harness.client, PROMPT);
      expect(await clusterOf(harness, variant)).toBe(first);
      expect(await clusterOf(harness, again)).toBe(first);
      // Two clusters were founded; the prompt's band keys find its own, with the founding signature.
      const found = await harness.arena.store.promptClusters.candidates(bandKeys(promptSignature(VARIANT)!));
      expect(found.map((candidate) => candidate.cluster)).toEqual([first]);
      expect(found[0]!.signature).toEqual(promptSignature(PROMPT));
    } finally {
      await harness.close();
    }
  });
});
