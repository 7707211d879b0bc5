import { type SignedPrompt, signPrompt } from '../domain/prompts/prompt-cluster-index';
import type { PromptClusterIndex } from './prompt-cluster-index';

/** A conversation of a post-processing page, as the cluster assignment reads it. */
export interface ClusterableConversation {
  duelId: string;
  /** Its cluster from an earlier pass: kept ('' included). */
  previous: string | null | undefined;
  /** The prompt of its first complete turn; undefined when it has none. */
  firstPrompt: string | undefined;
  /** Its first prompt's signature and band keys when already computed (the rules layer's threads sign them). */
  signed?: Pick<SignedPrompt, 'signature' | 'bands'> | null;
}

/**
 * The near-duplicate cluster of each conversation of a page (docs/ranking.md#duplicate-prompts):
 * its first prompt's. A conversation keeps the cluster it was given; the others are matched, in
 * page order, against the clusters stored before whose band keys they share (the instance's
 * in-memory index of band keys, brought up to date first; their signatures in one read for the
 * page) and those founded earlier in the page; the clusters founded are stored. '' when the
 * conversation has no prompt to cluster.
 */
export async function assignPromptClusters(
  index: PromptClusterIndex,
  conversations: readonly ClusterableConversation[],
  now: Date,
): Promise<string[]> {
  const open = conversations.filter((conversation) => conversation.previous == null && conversation.firstPrompt !== undefined);
  // Each prompt signed once: its band keys serve the store's lookup and the matching alike.
  const signed = open.map((conversation) =>
    conversation.signed ? { id: conversation.duelId, ...conversation.signed } : signPrompt(conversation.duelId, conversation.firstPrompt!),
  );
  await index.catchUp();
  const assigned = index.assignPage(signed);
  await index.saveFounded(
    assigned.flatMap((assignment) =>
      assignment?.founded ? [{ cluster: assignment.cluster, signature: assignment.signature!, bands: assignment.bands! }] : [],
    ),
    now.toISOString(),
  );
  const byDuel = new Map(open.map((conversation, index) => [conversation.duelId, assigned[index]?.cluster ?? '']));
  return conversations.map((conversation) => conversation.previous ?? byDuel.get(conversation.duelId) ?? '');
}
