import { createHmac } from 'node:crypto';
import type { ExportModelFacts, RowContext } from '../../domain/datasets/conversation-rows';

/**
 * The public ids of one deployment: sides and visitors hashed with its secret salt (HMAC-SHA-256),
 * so that an exported id never leads back to a duel or a cookie, and the same conversation gets the
 * same ids in every export (the open datasets and the optimised set alike).
 */
export function rowContext(salt: string, models: ReadonlyMap<string, ExportModelFacts>): RowContext {
  const visitors = new Map<string, string>();
  return {
    model: (modelId) => models.get(modelId),
    sideIds: (duelId) => {
      const digest = createHmac('sha256', salt).update(`conversation-pair\0${duelId}`).digest('hex');
      return { a: digest.slice(0, 32), b: digest.slice(32) };
    },
    // A cluster's id is its founding duel's: salted like a side's id, under another label, so that it
    // equals no conversation_pair_id and leads back to no duel.
    promptClusterId: (cluster) => createHmac('sha256', salt).update(`prompt-cluster\0${cluster}`).digest('hex').slice(0, 32),
    visitorId: (visitorHash) => {
      let id = visitors.get(visitorHash);
      if (id === undefined) {
        id = createHmac('sha256', salt).update(`visitor\0${visitorHash}`).digest('hex');
        // Visitors come back, but memory must stay bounded on any store: forget them all now and then.
        if (visitors.size >= 100_000) visitors.clear();
        visitors.set(visitorHash, id);
      }
      return id;
    },
  };
}
