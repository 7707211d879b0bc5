import type { PublishedDatasets } from '@agora/contract';
import type { DatasetRepository } from '../db/repositories/dataset.repository';
import type { Runtime } from './runtime';

/** How long the answer is reused: publications are rare, and the page is public (a flood reads memory, not the store). */
const CACHE_MS = 10_000;

/**
 * What this arena has published, for the datasets page: the last export and the last optimised set,
 * with the figures of their cards (recorded when they were built). Nothing about the store itself.
 */
export class PublishedDatasetsService {
  private cached: { at: number; value: Promise<PublishedDatasets> } | undefined;

  constructor(
    private readonly builds: Pick<DatasetRepository, 'latestBuild'>,
    private readonly runtime: Pick<Runtime, 'now'>,
  ) {}

  latest(): Promise<PublishedDatasets> {
    const now = this.runtime.now().getTime();
    if (!this.cached || now - this.cached.at >= CACHE_MS) {
      const value = this.read();
      // A failed read is not kept: the next request tries the store again.
      value.catch(() => (this.cached = undefined));
      this.cached = { at: now, value };
    }
    return this.cached.value;
  }

  private async read(): Promise<PublishedDatasets> {
    const [exported, optimised] = await Promise.all([this.builds.latestBuild('export'), this.builds.latestBuild('optimised')]);
    return {
      export: exported ? { built_at: exported.createdAt, ...exported.summary } : null,
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
