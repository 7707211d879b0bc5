import { assignClusters } from '../domain/prompts/prompt-cluster-index';
import { bandKeys, promptSignature } from '../domain/prompts/prompt-clusters';
import type { Repositories } from '../db/unit-of-work';

/** A conversation of a post-processing page, as the cluster assignment reads it. */
export interface ClusterableConversation {
  duelId: string;
  /** Its cluster from an earlier pass: kept ('' included). */
  previous: string | null | undefined;
  /** The prompt of its first complete turn; undefined when it has none. */
  firstPrompt: string | undefined;
}

/**
 * The near-duplicate cluster of each conversation of a page (docs/ranking.md#duplicate-prompts):
 * its first prompt's. A conversation keeps the cluster it was given; the others are matched, in
 * page order, against the clusters stored before whose band keys they share (one indexed read for
 * the page) and those founded earlier in the page; the clusters founded are stored. '' when the
 * conversation has no prompt to cluster.
 */
export async function assignPromptClusters(
  repositories: Pick<Repositories, 'promptClusters'>,
  conversations: readonly ClusterableConversation[],
  now: Date,
): Promise<string[]> {
  const open = conversations.filter((conversation) => conversation.previous == null && conversation.firstPrompt !== undefined);
  const bands = new Set<string>();
  for (const conversation of open) {
    const signature = promptSignature(conversation.firstPrompt!);
    if (signature) for (const band of bandKeys(signature)) bands.add(band);
  }
  const stored = await repositories.promptClusters.candidates([...bands]);
  // Every stored candidate of the page is offered to each prompt: matchCluster checks the similarity itself.
  const assigned = assignClusters(
    open.map((conversation) => ({ id: conversation.duelId, prompt: conversation.firstPrompt! })),
    () => stored,
  );
  await repositories.promptClusters.saveFounded(
    assigned.flatMap((assignment) =>
      assignment?.founded
        ? [{ cluster: assignment.cluster, signature: assignment.signature!, bands: assignment.bands!, createdAt: now.toISOString() }]
        : [],
    ),
  );
  const byDuel = new Map(open.map((conversation, index) => [conversation.duelId, assigned[index]?.cluster ?? '']));
  return conversations.map((conversation) => conversation.previous ?? byDuel.get(conversation.duelId) ?? '');
}
