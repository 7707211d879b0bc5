import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from './test-db';
import { parseCatalogue } from '../src/config/catalogue';
import { bandKeys, promptSignature } from '../src/domain/prompts/prompt-clusters';
import { dedupQuery } from '../src/domain/datasets/dataset-card-text';
import { exportModelFacts } from '../src/domain/datasets/export-model-facts';
import { DatasetExportService } from '../src/services/dataset-export.service';
import { PromptClusterIndex } from '../src/services/prompt-cluster-index';
import { ArenaClient, type TestArena, startTestArena, testCatalogueYaml, until } from './test-arena';
import { subsetJsonl, subsetRows } from './export-files';

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
      // Two clusters were founded; an index built from the store (another instance's) finds the prompt's own by its band keys, with the founding signature.
      const index = new PromptClusterIndex(harness.arena.store.promptClusters);
      await index.catchUp();
      expect(index.size).toBe(2);
      const found = index.candidatesByBand(bandKeys(promptSignature(VARIANT)!));
      expect(found.map((candidate) => candidate.cluster)).toEqual([first]);
      expect(found[0]!.signature).toEqual(promptSignature(PROMPT));
      await checkExport(harness, { first, other, variant, again });
    } finally {
      await harness.close();
    }
  });
});

/**
 * The export's `prompt_cluster`: one salted id per stored cluster, the same in every subset and tier,
 * equal to no duel id and no public id of a conversation; the card's DuckDB query keeps one
 * conversation per cluster.
 */
async function checkExport(harness: TestArena, duels: Record<'first' | 'other' | 'variant' | 'again', string>): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), 'agora-prompt-clusters-'));
  const duckdb = await DuckDBInstance.create(':memory:');
  const connection = await duckdb.connect();
  try {
    const facts = exportModelFacts(parseCatalogue(testCatalogueYaml('http://127.0.0.1:1'), 'test-models.yaml', {}), {
      method: '0.9.1',
      zone: undefined,
    });
    await new DatasetExportService(
      harness.arena.store.datasets,
      facts,
      { privateCohorts: [], batchSize: 10, rowGroupRows: 10 },
      () => new Date(),
    ).export({
      outDir: out,
      formats: ['parquet', 'jsonl'],
      datasets: ['conversations', 'votes', 'dpo'],
    });
    const conversations = await subsetRows(out, 'conversations', 'gated');
    expect(conversations).toHaveLength(4);
    const clusters = new Set(conversations.map((row) => row.prompt_cluster as string));
    expect(clusters.size).toBe(2);
    for (const cluster of clusters) expect(cluster).toMatch(/^[0-9a-f]{32}$/);
    // Opaque: neither a duel id nor a public id of any conversation or side.
    const publicIds = conversations.flatMap((row) => [row.conversation_pair_id, row.conv_a_id, row.conv_b_id] as string[]);
    for (const cluster of clusters) {
      expect(Object.values(duels).some((id) => cluster.includes(id) || id.includes(cluster))).toBe(false);
      expect(publicIds.some((id) => id.includes(cluster))).toBe(false);
    }
    // The three conversations on the first prompt share one cluster; the other question has its own.
    const byPrompt = (prompt: string) =>
      conversations.filter((row) => row.opening_msg === prompt).map((row) => row.prompt_cluster as string);
    expect(new Set([...byPrompt(PROMPT), ...byPrompt(VARIANT)]).size).toBe(1);
    expect(byPrompt(OTHER)).toHaveLength(1);
    expect(byPrompt(PROMPT)[0]).not.toBe(byPrompt(OTHER)[0]);
    // Every subset and tier, Parquet and JSONL, carry the conversation's value.
    const clusterOf = new Map(conversations.map((row) => [row.conversation_pair_id as string, row.prompt_cluster as string]));
    for (const [dataset, tier] of [
      ['votes', 'gated'],
      ['votes', 'public'],
      ['conversations', 'public'],
    ] as const) {
      const rows = subsetJsonl(out, dataset, tier);
      expect(rows, `${tier} ${dataset}`).toHaveLength(4);
      for (const row of rows) expect(row.prompt_cluster).toBe(clusterOf.get(row.conversation_pair_id as string));
    }
    const dpo = subsetJsonl(out, 'dpo', 'public');
    expect(dpo.length).toBeGreaterThan(0);
    for (const row of dpo) expect(row.prompt_cluster).toBe(clusterOf.get(row.source_id as string));
    // The card documents the column and its query, which keeps one conversation per cluster.
    const card = readFileSync(join(out, 'public', 'README.md'), 'utf8');
    expect(card).toContain('## Duplicate prompts');
    expect(card).toContain('max(5, 1 % of the view');
    const query = dedupQuery(join(out, 'public', 'conversations', '*', '*.parquet'), 'parquet');
    expect(card).toContain(dedupQuery('PATH/conversations/*/train-*.parquet', 'parquet'));
    const kept = (await connection.runAndReadAll(query)).getRowObjectsJS();
    expect(kept.map((row) => row.prompt_cluster).sort()).toEqual([...clusters].sort());
    // The public tier's timestamps are days: the three share one, and the tie goes to the smaller id,
    // a salted hash (random per deployment), so any of the cluster's conversations may be the one kept.
    expect([PROMPT, VARIANT]).toContain(kept.find((row) => row.opening_msg !== OTHER)?.opening_msg);
  } finally {
    connection.closeSync();
    duckdb.closeSync();
    rmSync(out, { recursive: true, force: true });
  }
}
