import type { ArenaStatistics } from '@agora/contract';
import type { StatisticsRepository } from '../db/repositories/statistics.repository';
import { arenaStatistics } from '../domain/statistics/arena-statistics';

/**
 * The statistics page's figures: eight group counts over the whole store, so they are computed at most
 * once a minute per instance (every instance reads the same store, so they agree within that minute).
 */
export const STATISTICS_TTL_MS = 60_000;

export class StatisticsService {
  private cached: { value: ArenaStatistics; at: number } | undefined;
  private pending: Promise<ArenaStatistics> | undefined;

  constructor(
    private readonly statistics: Pick<StatisticsRepository, 'counts'>,
    private readonly now: () => number = Date.now,
  ) {}

  async current(): Promise<ArenaStatistics> {
    if (this.cached && this.now() - this.cached.at < STATISTICS_TTL_MS) return this.cached.value;
    // Visitors arriving together share one computation.
    this.pending ??= this.compute().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async compute(): Promise<ArenaStatistics> {
    const at = this.now();
    const value = arenaStatistics(await this.statistics.counts(), new Date(at).toISOString());
    this.cached = { value, at };
    return value;
  }
}
