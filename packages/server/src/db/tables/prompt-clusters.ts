import type { Generated } from 'kysely';

/** A near-duplicate cluster's founding MinHash signature (migrations 2026_12_09_110200, 2026_12_10_174600; domain/prompts/prompt-clusters.ts). */
export interface PromptClustersTable {
  /** Order of storing: how an instance picks up the clusters other instances founded since it last looked. */
  seq: Generated<number>;
  /** The duel id of the conversation whose first prompt founded the cluster. */
  cluster: string;
  /** 128 values in hexadecimal. */
  signature: string;
  created_at: string;
}

export interface PromptClusterTables {
  prompt_clusters: PromptClustersTable;
}
