import { type ClusterCandidate, bandKeys, matchCluster, promptSignature } from './prompt-clusters';

/** Where a prompt went: the cluster it joined or founded, and the band keys to keep when it founded one. */
export interface ClusterAssignment {
  cluster: string;
  founded: boolean;
  /** The founding signature and its band keys (only when `founded`). */
  signature?: Uint32Array | undefined;
  bands?: string[] | undefined;
}

/**
 * Assigns prompts to clusters in the order given, against the clusters known before (`lookup`:
 * the clusters that share a band key, as the store finds them) and those founded earlier in the
 * same batch. `idOf` names a founded cluster (the founding conversation's duel id). A prompt with
 * nothing left after normalisation gets no cluster (null).
 */
export function assignClusters(
  prompts: readonly { id: string; prompt: string }[],
  known: (bands: readonly string[]) => readonly ClusterCandidate[],
): (ClusterAssignment | null)[] {
  const batchBands = new Map<string, ClusterCandidate[]>();
  return prompts.map(({ id, prompt }) => {
    const signature = promptSignature(prompt);
    if (signature === null) return null;
    const bands = bandKeys(signature);
    const seen = new Set<string>();
    const candidates: ClusterCandidate[] = [];
    for (const candidate of [...known(bands), ...bands.flatMap((band) => batchBands.get(band) ?? [])])
      if (!seen.has(candidate.cluster)) {
        seen.add(candidate.cluster);
        candidates.push(candidate);
      }
    const joined = matchCluster(signature, candidates);
    if (joined !== null) return { cluster: joined, founded: false };
    const founded: ClusterCandidate = { cluster: id, signature };
    for (const band of bands) batchBands.set(band, [...(batchBands.get(band) ?? []), founded]);
    return { cluster: id, founded: true, signature, bands };
  });
}

/** Clusters of a whole set of prompts at once, in order (the tests' and the load test's in-memory form). */
export function clusterPrompts(prompts: readonly { id: string; prompt: string }[]): (string | null)[] {
  return assignClusters(prompts, () => []).map((assignment) => assignment?.cluster ?? null);
}
