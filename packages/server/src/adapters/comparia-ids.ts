import { createHash } from 'node:crypto';
import { COMPARIA_SOURCE } from '../domain/comparia/comparia-rows';

/** The duel id of an imported conversation pair: derived from the pair id, so re-imports find it. */
export function importedDuelId(conversationPairId: string): string {
  return createHash('sha256').update(`${COMPARIA_SOURCE}:${conversationPairId}`).digest('base64url').slice(0, 22);
}
