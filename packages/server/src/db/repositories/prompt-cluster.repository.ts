import type { Kysely } from 'kysely';
import type { Database } from '../database';
import { decodeSignature, encodeSignature } from '../../domain/prompts/prompt-clusters';

/** A cluster founded by post-processing: its founding signature. */
export interface FoundedCluster {
  cluster: string;
  signature: Uint32Array;
  createdAt: string;
}

/** A stored cluster: its founding signature, when it was founded, and its order of storing. */
export interface StoredCluster {
  seq: number;
  cluster: string;
  signature: Uint32Array;
  createdAt: string;
}

/** Rows per statement: three parameters a row stay under both stores' limits on bound parameters. */
const PAGE = 1000;

/**
 * Near-duplicate clusters' founding signatures (docs/ranking.md#duplicate-prompts). Their band
 * keys are not stored: each post-processing instance keeps them in memory
 * (services/prompt-cluster-index.ts), rebuilt from these rows and followed by `seq`.
 */
export class PromptClusterRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Up to `limit` clusters stored after `afterSeq`, in order of storing. */
  async listAfter(afterSeq: number, limit: number): Promise<StoredCluster[]> {
    const rows = await this.db
      .selectFrom('prompt_clusters')
      .select(['seq', 'cluster', 'signature', 'created_at'])
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      seq: Number(row.seq),
      cluster: row.cluster,
      signature: decodeSignature(row.signature),
      createdAt: row.created_at,
    }));
  }

  /** The ids of the clusters stored after `afterSeq`, without their signatures (the cheap look for what is new). */
  async idsAfter(afterSeq: number): Promise<{ seq: number; cluster: string }[]> {
    const rows = await this.db
      .selectFrom('prompt_clusters')
      .select(['seq', 'cluster'])
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .execute();
    return rows.map((row) => ({ seq: Number(row.seq), cluster: row.cluster }));
  }

  /** These clusters, with their founding signatures (any order; unknown ids are left out). */
  async find(clusters: readonly string[]): Promise<StoredCluster[]> {
    const found: StoredCluster[] = [];
    for (let start = 0; start < clusters.length; start += PAGE) {
      const rows = await this.db
        .selectFrom('prompt_clusters')
        .select(['seq', 'cluster', 'signature', 'created_at'])
        .where('cluster', 'in', clusters.slice(start, start + PAGE))
        .execute();
      for (const row of rows)
        found.push({ seq: Number(row.seq), cluster: row.cluster, signature: decodeSignature(row.signature), createdAt: row.created_at });
    }
    return found;
  }

  /** Keeps founded clusters, in the order given (a cluster stored before stays as it was). */
  async saveFounded(clusters: readonly FoundedCluster[]): Promise<void> {
    for (let start = 0; start < clusters.length; start += PAGE) {
      await this.db
        .insertInto('prompt_clusters')
        .values(
          clusters.slice(start, start + PAGE).map((cluster) => ({
            cluster: cluster.cluster,
            signature: encodeSignature(cluster.signature),
            created_at: cluster.createdAt,
          })),
        )
        .onConflict((conflict) => conflict.column('cluster').doNothing())
        .execute();
    }
  }
}
