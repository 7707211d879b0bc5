import type { Kysely } from 'kysely';
import type { Database } from '../database';
import { type ClusterCandidate, decodeSignature, encodeSignature } from '../../domain/prompts/prompt-clusters';

/** A cluster founded by post-processing: its founding signature and band keys. */
export interface FoundedCluster {
  cluster: string;
  signature: Uint32Array;
  bands: readonly string[];
  createdAt: string;
}

/** Near-duplicate clusters' founding signatures, found by band key (docs/ranking.md#duplicate-prompts). */
export class PromptClusterRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The clusters that share at least one of these band keys, with their founding signatures (oldest first). */
  async candidates(bands: readonly string[]): Promise<ClusterCandidate[]> {
    const found = new Map<string, { signature: string; createdAt: string }>();
    // Pages of band keys keep each statement under both stores' limits on bound parameters.
    for (let start = 0; start < bands.length; start += 1000) {
      const rows = await this.db
        .selectFrom('prompt_clusters')
        .select(['prompt_clusters.cluster', 'prompt_clusters.signature', 'prompt_clusters.created_at'])
        .where('prompt_clusters.cluster', 'in', (eb) =>
          eb
            .selectFrom('prompt_cluster_bands')
            .select('prompt_cluster_bands.cluster')
            .where('prompt_cluster_bands.band', 'in', bands.slice(start, start + 1000)),
        )
        .execute();
      for (const row of rows) found.set(row.cluster, { signature: row.signature, createdAt: row.created_at });
    }
    return [...found]
      .sort(([left, a], [right, b]) => a.createdAt.localeCompare(b.createdAt) || left.localeCompare(right))
      .map(([cluster, { signature }]) => ({ cluster, signature: decodeSignature(signature) }));
  }

  /**
   * The clusters that share at least one of these band keys, oldest first, each with the band keys
   * it shares: one join per thousand keys, so that each prompt of a page is offered only the
   * clusters that share one of its own keys (not every cluster the page's keys found).
   */
  async candidatesByBand(bands: readonly string[]): Promise<(ClusterCandidate & { bands: string[] })[]> {
    const found = new Map<string, { signature: string; createdAt: string; bands: string[] }>();
    // In key order, each statement walks the band index forwards (measured: about half the time of the page's order).
    const keys = [...bands].sort();
    for (let start = 0; start < keys.length; start += 1000) {
      const rows = await this.db
        .selectFrom('prompt_cluster_bands')
        .innerJoin('prompt_clusters', 'prompt_clusters.cluster', 'prompt_cluster_bands.cluster')
        .select(['prompt_cluster_bands.band', 'prompt_clusters.cluster', 'prompt_clusters.signature', 'prompt_clusters.created_at'])
        .where('prompt_cluster_bands.band', 'in', keys.slice(start, start + 1000))
        .execute();
      for (const row of rows) {
        const known = found.get(row.cluster);
        if (known) known.bands.push(row.band);
        else found.set(row.cluster, { signature: row.signature, createdAt: row.created_at, bands: [row.band] });
      }
    }
    return [...found]
      .sort(([left, a], [right, b]) => a.createdAt.localeCompare(b.createdAt) || left.localeCompare(right))
      .map(([cluster, { signature, bands: shared }]) => ({ cluster, signature: decodeSignature(signature), bands: shared }));
  }

  /** Keeps founded clusters (a cluster stored before stays as it was). */
  async saveFounded(clusters: readonly FoundedCluster[]): Promise<void> {
    // 32 band rows a cluster, two parameters each: pages stay under both stores' parameter limits.
    for (let start = 0; start < clusters.length; start += 100) {
      const page = clusters.slice(start, start + 100);
      await this.db
        .insertInto('prompt_clusters')
        .values(
          page.map((cluster) => ({
            cluster: cluster.cluster,
            signature: encodeSignature(cluster.signature),
            created_at: cluster.createdAt,
          })),
        )
        .onConflict((conflict) => conflict.column('cluster').doNothing())
        .execute();
      await this.db
        .insertInto('prompt_cluster_bands')
        // In key order: the band index takes them as a forward walk rather than at random places.
        .values(
          page
            .flatMap((cluster) => cluster.bands.map((band) => ({ band, cluster: cluster.cluster })))
            .sort((left, right) => (left.band < right.band ? -1 : left.band > right.band ? 1 : 0)),
        )
        .onConflict((conflict) => conflict.columns(['band', 'cluster']).doNothing())
        .execute();
    }
  }
}
