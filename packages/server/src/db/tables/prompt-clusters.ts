/** A near-duplicate cluster's founding MinHash signature (migration 2026_12_09_110200; domain/prompts/prompt-clusters.ts). */
export interface PromptClustersTable {
  /** The duel id of the conversation whose first prompt founded the cluster. */
  cluster: string;
  /** 128 values in hexadecimal. */
  signature: string;
  created_at: string;
}

/** The band keys of a cluster's founding signature: how a new prompt finds its candidate clusters. */
export interface PromptClusterBandsTable {
  band: string;
  cluster: string;
}

export interface PromptClusterTables {
  prompt_clusters: PromptClustersTable;
  prompt_cluster_bands: PromptClusterBandsTable;
}
