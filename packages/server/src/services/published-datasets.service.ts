import type { PublishedDatasets, PublishedExport, PublishedTier } from '@agora/contract';
import type { DatasetRepository } from '../db/repositories/dataset.repository';

/**
 * What this arena has published, for the datasets page: the last export and the last optimised set,
 * with the figures of their cards (recorded when they were built). Nothing about the store itself.
 * Two one-row reads on an index: no cache, so that a publication shows at once.
 */
export class PublishedDatasetsService {
  constructor(private readonly builds: Pick<DatasetRepository, 'latestBuild'>) {}

  async latest(): Promise<PublishedDatasets> {
    const [exported, optimised] = await Promise.all([this.builds.latestBuild('export'), this.builds.latestBuild('optimised')]);
    return {
      export: exported
        ? { built_at: exported.createdAt, ...exported.summary, tiers: exported.summary.tiers ?? tiersBefore0008(exported.summary) }
        : null,
      optimised: optimised
        ? {
            built_at: optimised.createdAt,
            subsets: optimised.summary.subsets,
            languages: optimised.summary.languages,
            models: optimised.summary.models,
            judge_agreement: optimised.summary.judge_agreement,
          }
        : null,
    };
  }
}

/**
 * The tiers of an export recorded before they were (docs/decisions/0006): the training subsets
 * public, compar:IA's three tables gated.
 */
function tiersBefore0008(summary: Pick<PublishedExport, 'datasets'>): PublishedTier[] {
  const names = summary.datasets.map((dataset) => dataset.name);
  const gated = new Set(['conversations', 'votes', 'reactions']);
  return [
    { name: 'public' as const, datasets: names.filter((name) => !gated.has(name)) },
    { name: 'gated' as const, datasets: names.filter((name) => gated.has(name)) },
  ].filter((tier) => tier.datasets.length > 0);
}
