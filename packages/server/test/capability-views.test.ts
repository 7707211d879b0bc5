import type { ModelProfile, LeaderboardBody } from '@agora/contract';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportModelFacts } from '../src/domain/datasets/export-model-facts';
import { DatasetExportService } from '../src/services/dataset-export.service';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from './test-db';
import { ANNOTATOR, annotatorAnswer, catalogueWithAnnotator } from './annotator-fixture';
import { TEST_MODELS, type TestArena, startTestArena, until } from './test-arena';

const MATH_PROMPT = 'Résous l’équation 3x + 2 = 11 et explique chaque étape en trois phrases au plus.';

/**
 * The fake annotation model: on the math prompt, every hardness criterion met and instruction
 * following; elsewhere a capabilities block that is not an object (the topics must survive it).
 */
function answerWithCapabilities(userMessage: string): string {
  const topics = JSON.parse(annotatorAnswer(userMessage)) as Record<string, unknown>;
  const hard = userMessage.includes('3x + 2');
  const capabilities = hard
    ? {
        specificity: true,
        domain_knowledge: true,
        complexity: true,
        problem_solving: true,
        creativity: false,
        technical_accuracy: true,
        real_world_application: true,
        creative_writing: false,
        instruction_following: true,
      }
    : 'n/a';
  return JSON.stringify({ ...topics, capabilities });
}

describe.each(DIALECTS)('capability views ($name)', (dialect) => {
  async function playAndVote(harness: TestArena, prompt: string, first: number, second: number): Promise<string> {
    const models = [TEST_MODELS[first]!.id, TEST_MODELS[second]!.id];
    const created = await harness.client.request('POST', '/api/v1/duels', { prompt, mode: 'custom', models, locale: 'fr' });
    await harness.client.stream(created.json.id);
    const duel = (await harness.arena.store.duels.findById(created.json.id))!;
    const vote = await harness.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, {
      choice: duel.modelA === models[0] ? 'a' : 'b',
    });
    expect(vote.status).toBe(200);
    return created.json.id as string;
  }

  it('labels conversations by rules and model, stores the labels, and ranks a view per label with enough votes', async () => {
    const harness = await startTestArena(dialect, {
      catalogue: catalogueWithAnnotator,
      environment: {
        AGORA_ANNOTATION_MODEL: ANNOTATOR.id,
        AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1',
        AGORA_POSTPROCESS_EVERY_S: '0.1',
        AGORA_INTEGRITY_MIN_VOTE_S: '0',
        AGORA_LEADERBOARD_MIN_VOTES: '3',
        AGORA_LEADERBOARD_MIN_INTERVAL_S: '0',
      },
    });
    try {
      harness.fake.defaultBehaviour = { tokensPerSecond: 0, text: 'Une réponse courte, en français, qui répond à la question posée.' };
      harness.fake.behave(ANNOTATOR.upstream, { tokensPerSecond: 0, text: answerWithCapabilities });
      const math: string[] = [];
      for (const [first, second] of [
        [0, 1],
        [1, 2],
        [0, 2],
        [0, 1],
      ])
        math.push(await playAndVote(harness, MATH_PROMPT, first!, second!));
      const plain = await playAndVote(harness, 'Bonjour, comment vas-tu ?', 2, 3);

      const stored = await until(
        () => harness.arena.store.annotations.find(math[0]!),
        (found) => found?.status === 'done' && found.modelStatus === 'done',
      );
      expect(stored!.capabilities).toEqual([
        'hard_prompt',
        'specificity',
        'domain_knowledge',
        'complexity',
        'problem_solving',
        'technical_accuracy',
        'real_world_application',
        'instruction_following',
        'math',
      ]);
      const other = await until(
        () => harness.arena.store.annotations.find(plain),
        (found) => found?.status === 'done' && found.modelStatus === 'done',
      );
      // The malformed capabilities block cost its labels only: the topics were stored.
      expect(other).toMatchObject({ capabilities: [], categories: ['Health & Wellness & Medicine'] });

      const get = async (query: string) => (await harness.client.request('GET', `/api/v1/leaderboard${query}`)).json as LeaderboardBody;
      const mathView = await until(
        () => get('?capability=math'),
        (body) => body.n_votes === 4 && body.models.length > 0,
      );
      expect(mathView.view).toMatchObject({ capability: 'math', category: null, style: 'plain' });
      expect(mathView.models[0]!.model).toBe(TEST_MODELS[0].id);
      expect(mathView.available.capabilities).toEqual(
        expect.arrayContaining([
          { value: 'math', n_votes: 4 },
          { value: 'hard_prompt', n_votes: 4 },
        ]),
      );
      // Topics and labels are listed apart: no label leaks into the topic list.
      expect(mathView.available.categories.every((entry) => !entry.value.startsWith('capability:'))).toBe(true);
      expect((await get('?capability=hard_prompt&style=controlled')).view).toMatchObject({
        capability: 'hard_prompt',
        style: 'controlled',
      });
      expect(await get('?capability=code')).toMatchObject({ n_votes: 0, models: [], view: { capability: 'code' } });
      expect((await get('')).view.capability).toBeNull();
      expect((await harness.client.request('GET', '/api/v1/leaderboard?capability=poetry')).status).toBe(400);
      // The model sheet names a capability view by its label, not as a topic "capability:math".
      const profile = (await harness.client.request('GET', `/api/v1/models/${TEST_MODELS[0].id}/profile`)).json as ModelProfile;
      expect(profile.ratings.map((entry) => entry.view)).toContainEqual(expect.objectContaining({ capability: 'math', category: null }));
      expect(profile.ratings.every((entry) => !entry.view.category?.startsWith('capability:'))).toBe(true);

      // Exports: the conversations subset and the TRL rows carry the labels.
      const out = mkdtempSync(join(tmpdir(), 'agora-capabilities-'));
      try {
        await new DatasetExportService(
          harness.arena.store.datasets,
          exportModelFacts(catalogueWithAnnotator('http://127.0.0.1:1'), { method: '0.9.1', zone: undefined }),
          { privateCohorts: [], batchSize: 10, rowGroupRows: 10 },
          () => new Date(),
        ).export({ outDir: out, formats: ['jsonl'], datasets: ['conversations', 'dpo'] });
        const rows = (dataset: string) =>
          readFileSync(join(out, 'public', dataset, 'fr', 'train.jsonl'), 'utf8')
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as { capabilities: string[] | null });
        const conversations = rows('conversations');
        expect(conversations).toHaveLength(5);
        expect(conversations.filter((row) => row.capabilities?.includes('hard_prompt'))).toHaveLength(4);
        expect(conversations.filter((row) => row.capabilities?.length === 0)).toHaveLength(1);
        expect(rows('dpo').every((row) => Array.isArray(row.capabilities))).toBe(true);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    } finally {
      await harness.close();
    }
  });
});
