import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../../src/config/catalogue';
import { exportModelFacts } from '../../src/domain/datasets/export-model-facts';
import { DATASET_NAMES } from '../../src/domain/datasets/export-columns';
import { DatasetExportService } from '../../src/services/dataset-export.service';
import { filesUnder, subsetJsonl } from '../export-files';
import { TEST_MODELS, testCatalogueYaml } from '../test-arena';
import { type InProcessArena, startInProcessArena } from './harness';
import { screeningService } from './screening';

/**
 * `agora export` over a small in-process store: duels played and voted through the routes, screened
 * by the rules layer, then written as JSON Lines to a folder of the system's temporary directory
 * (removed after each test). What a reader of either tier relies on: nothing flagged or unscreened
 * in it, in any subset or card.
 */

let harness: InProcessArena;
let folders: string[] = [];
beforeEach(async () => {
  harness = await startInProcessArena({ AGORA_INTEGRITY_MIN_VOTE_S: '0' });
});
afterEach(async () => {
  await harness.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders = [];
});

const [first, second] = TEST_MODELS.map((model) => model.id) as [string, string];
const answers: [string, string] = ['Oui, je peux t’aider pour la révision.', 'Bien sûr, voici les dates clés de la leçon.'];
const CLEAN = 'Bonjour, peux-tu m’aider à réviser la prise de la Bastille ?';
const FLAGGED_EMAIL = 'paul.girard@laposte.net';
const FLAGGED = `Écris à mon professeur de latin, son adresse est ${FLAGGED_EMAIL}, merci.`;
const WAITING = 'Bonjour, quelles sont les dates du traité de Verdun pour la révision ?';

function exportService(): DatasetExportService {
  const models = parseCatalogue(testCatalogueYaml('http://127.0.0.1:9'), 'test-models.yaml', {});
  return new DatasetExportService(
    harness.arena.store.datasets,
    exportModelFacts(models, { method: '0.9.1', zone: undefined }),
    {
      privateCohorts: [],
    },
    harness.runtime.now,
  );
}

async function exportInto(): Promise<{ outDir: string; files: { tier: string; dataset: string; rows: number }[] }> {
  const outDir = mkdtempSync(join(tmpdir(), 'agora-in-process-export-'));
  folders.push(outDir);
  const result = await exportService().export({ outDir, formats: ['jsonl'], datasets: [...DATASET_NAMES] });
  return { outDir, files: result.files };
}

/** A duel with a liked answer, then voted: a row in each of compar:IA's three subsets. */
async function likedAndVoted(prompt: string): Promise<string> {
  const visitor = harness.visitor();
  harness.models.script(first, { answer: answers[0] });
  harness.models.script(second, { answer: answers[1] });
  const { id } = await visitor.playedDuel([first, second], prompt);
  const liked = await visitor.request('POST', `/api/v1/duels/${id}/reactions`, { side: 'a', turn: 1, value: 'like' });
  const vote = await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'a' });
  if (liked.status !== 200 || vote.status !== 200) throw new Error(`refused: ${JSON.stringify([liked.json, vote.json])}`);
  return id;
}

/** Whether any file of the export holds this text (every subset of both tiers, and the cards). */
const anyFileHolds = (outDir: string, text: string): string[] =>
  filesUnder(outDir).filter((path) => readFileSync(path, 'utf8').includes(text));

describe('the dataset export, in process', () => {
  it('writes both tiers with the clean conversation, and neither holds a flagged or an unscreened one', async () => {
    await likedAndVoted(CLEAN);
    await likedAndVoted(FLAGGED);
    expect(await screeningService(harness, { withModel: false }).runDue(10)).toMatchObject({ done: 2, flagged: 1 });
    // Voted after the screening pass: waiting for the next one.
    await likedAndVoted(WAITING);

    const { outDir, files } = await exportInto();
    const rowsOf = (tier: string, dataset: string) => files.find((file) => file.tier === tier && file.dataset === dataset)?.rows;
    for (const tier of ['public', 'gated'])
      for (const dataset of ['conversations', 'votes', 'reactions']) expect(rowsOf(tier, dataset), `${tier} ${dataset}`).toBe(1);
    for (const tier of ['public', 'gated']) {
      const [conversation] = subsetJsonl(outDir, 'conversations', tier as 'public' | 'gated');
      expect(JSON.stringify(conversation)).toContain('prise de la Bastille');
    }
    // The tiers differ by what links rows to a person: the visitor id is in the gated tier only.
    expect(subsetJsonl(outDir, 'conversations', 'gated')[0]).toHaveProperty('visitor_id');
    expect(subsetJsonl(outDir, 'conversations', 'public')[0]).not.toHaveProperty('visitor_id');
    for (const text of [FLAGGED_EMAIL, 'professeur de latin', 'traité de Verdun']) expect(anyFileHolds(outDir, text), text).toEqual([]);
    // Each card counts what was left out, and why.
    for (const tier of ['public', 'gated'])
      expect(readFileSync(join(outDir, tier, 'README.md'), 'utf8')).toContain(
        'Of 3 conversations in the store: 1 not screened yet, 0 whose screening failed, 1 flagged as containing personal data',
      );
  });

  it('publishes a conversation once it is screened, in the next export, and the datasets page shows the latest one', async () => {
    const screening = screeningService(harness, { withModel: false });
    await likedAndVoted(CLEAN);
    await screening.runDue(10);
    await likedAndVoted(WAITING);
    const first = await exportInto();
    expect(anyFileHolds(first.outDir, 'traité de Verdun')).toEqual([]);

    harness.runtime.advance(3_600_000);
    await screening.runDue(10);
    const second = await exportInto();
    const prompts = subsetJsonl(second.outDir, 'conversations', 'public').map((row) => JSON.stringify(row.conversation_a));
    expect(prompts.filter((text) => text.includes('traité de Verdun'))).toHaveLength(1);
    expect(prompts.filter((text) => text.includes('prise de la Bastille'))).toHaveLength(1);

    const page = await harness.visitor().request('GET', '/api/v1/datasets');
    expect(page.status).toBe(200);
    expect(page.json.export).toMatchObject({
      built_at: harness.runtime.now().toISOString(),
      conversations: 2,
      formats: ['jsonl'],
      tiers: [
        { name: 'public', datasets: [...DATASET_NAMES] },
        { name: 'gated', datasets: ['conversations', 'votes', 'reactions'] },
      ],
    });
    expect(page.json.export.datasets).toContainEqual({ name: 'votes', rows: 2 });
  });
});
