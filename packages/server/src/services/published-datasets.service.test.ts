import { publishedDatasetsSchema } from '@agora/contract';
import { describe, expect, it } from 'vitest';
import type { DatasetBuild } from '../db/repositories/dataset.repository';
import { PublishedDatasetsService } from './published-datasets.service';

const exportBuild = (summary: Record<string, unknown>): DatasetBuild => ({
  id: 'b1',
  kind: 'export',
  createdAt: '2026-12-01T10:00:00.000Z',
  summary: {
    conversations: 3,
    formats: ['parquet'],
    license: 'other',
    datasets: [
      { name: 'votes', rows: 2 },
      { name: 'dpo', rows: 1 },
    ],
    languages: [{ language: 'fr', conversations: 3 }],
    ...summary,
  },
});

const service = (build: DatasetBuild | undefined) =>
  new PublishedDatasetsService({
    latestBuild: async (kind) => (kind === 'export' ? build : undefined) as never,
  });

describe('what the datasets page is told of the last export', () => {
  it('names the two datasets the export recorded, in the shape of the contract', async () => {
    const tiers = [
      { name: 'public', datasets: ['votes', 'dpo'] },
      { name: 'gated', datasets: ['votes'] },
    ];
    const latest = await service(exportBuild({ tiers })).latest();
    expect(latest.export?.tiers).toEqual(tiers);
    expect(publishedDatasetsSchema.parse(latest)).toEqual(latest);
  });

  it('gives an export recorded before the two folders the tiers it had then: compar:IA tables gated, training subsets public', async () => {
    const latest = await service(exportBuild({})).latest();
    expect(latest.export?.tiers).toEqual([
      { name: 'public', datasets: ['dpo'] },
      { name: 'gated', datasets: ['votes'] },
    ]);
    expect(publishedDatasetsSchema.parse(latest)).toEqual(latest);
  });

  it('says nothing was published when nothing was', async () => {
    expect(await service(undefined).latest()).toEqual({ export: null, optimised: null });
  });
});
