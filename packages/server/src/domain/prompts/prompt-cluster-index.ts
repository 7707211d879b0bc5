import { type ClusterCandidate, bandKeys, matchCluster, promptSignature } from './prompt-clusters';

/** Where a prompt went: the cluster it joined or founded, and the band keys to keep when it founded one. */
export interface ClusterAssignment {
  cluster: string;
  founded: boolean;
  /** The founding signature and its band keys (only when `founded`). */
  signature?: Uint32Array | undefined;
  bands?: string[] | undefined;
}

/** A prompt already signed: its MinHash signature and band keys (null when nothing was left of it after normalisation). */
export interface SignedPrompt {
  id: string;
  signature: Uint32Array | null;
  bands: string[] | null;
}

/** A prompt's signature and band keys, computed once for both the store's lookup and the matching. */
export function signPrompt(id: string, prompt: string): SignedPrompt {
  const signature = promptSignature(prompt);
  return { id, signature, bands: signature === null ? null : bandKeys(signature) };
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
  return assignSignedClusters(
    prompts.map(({ id, prompt }) => signPrompt(id, prompt)),
    known,
  );
}

/** {@link assignClusters} over prompts signed before (the post-processing page signs each prompt once). */
export function assignSignedClusters(
  prompts: readonly SignedPrompt[],
  known: (bands: readonly string[]) => readonly ClusterCandidate[],
): (ClusterAssignment | null)[] {
  const batchBands = new Map<string, ClusterCandidate[]>();
  return prompts.map(({ id, signature, bands }) => {
    if (signature === null || bands === null) return null;
    const seen = new Set<string>();
    const candidates: ClusterCandidate[] = [];
    const offer = (candidate: ClusterCandidate) => {
      if (seen.has(candidate.cluster)) return;
      seen.add(candidate.cluster);
      candidates.push(candidate);
    };
    for (const candidate of known(bands)) offer(candidate);
    for (const band of bands) for (const candidate of batchBands.get(band) ?? []) offer(candidate);
    const joined = matchCluster(signature, candidates);
    if (joined !== null) return { cluster: joined, founded: false };
    const founded: ClusterCandidate = { cluster: id, signature };
    for (const band of bands) {
      const list = batchBands.get(band);
      if (list) list.push(founded);
      else batchBands.set(band, [founded]);
    }
    return { cluster: id, founded: true, signature, bands };
  });
}

/** Clusters of a whole set of prompts at once, in order (the tests' and the load test's in-memory form). */
export function clusterPrompts(prompts: readonly { id: string; prompt: string }[]): (string | null)[] {
  return assignClusters(prompts, () => []).map((assignment) => assignment?.cluster ?? null);
}
