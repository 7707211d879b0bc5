import { PUBLIC_NULL_COLUMNS, tierColumns } from './dataset-tiers';
import type { ComparIaTable, DatasetRow, TranscriptMessage } from './export-columns';

/**
 * The public tier's rows of compar:IA's tables, made from the gated tier's (docs/decisions/0008):
 * the same rows without what links them to a person or a moment.
 */

/** The UTC day (`YYYY-MM-DD`) of an ISO-8601 time; null when it is not one. */
export function dayOf(time: unknown): string | null {
  if (typeof time !== 'string') return null;
  const instant = Date.parse(time);
  return Number.isNaN(instant) ? null : new Date(instant).toISOString().slice(0, 10);
}

/**
 * A conversation column for the public tier: answers without their provider's generation id (an
 * OpenRouter id, `gen-<epoch seconds>-…`, holds the second the request was sent). The same list
 * when no answer has one, as arena answers never do, so that its bytes are encoded once for both tiers.
 */
export function withoutGenerationIds(messages: TranscriptMessage[]): TranscriptMessage[] {
  const hasId = (message: TranscriptMessage) => 'metadata' in message && message.metadata.generation_id !== null;
  if (!messages.some(hasId)) return messages;
  return messages.map((message) =>
    'metadata' in message && hasId(message) ? { ...message, metadata: { ...message.metadata, generation_id: null } } : message,
  );
}

/**
 * The public row of a gated row of compar:IA's tables: the public tier's columns in their order,
 * the day for the time, the conversation columns without generation ids.
 */
export function publicRow(
  table: ComparIaTable,
  gated: DatasetRow,
  conversations: { a: TranscriptMessage[]; b: TranscriptMessage[] },
): DatasetRow {
  const row: DatasetRow = {};
  for (const { name } of tierColumns('public', table)) {
    if (name === 'timestamp') row.timestamp = dayOf(gated.timestamp);
    else if (name === 'conversation_a') row.conversation_a = conversations.a;
    else if (name === 'conversation_b') row.conversation_b = conversations.b;
    else row[name] = name in PUBLIC_NULL_COLUMNS ? null : (gated[name] ?? null);
  }
  return row;
}

/**
 * Where a public row goes among the rows written with it (docs/decisions/0008): a 32-bit FNV-1a hash
 * of its conversation's public id, a number unrelated to when the conversation happened, so that the
 * order of the files says nothing of the order of the visits. Rows of one conversation share it.
 */
export function publicOrderKey(conversationPairId: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < conversationPairId.length; index++) {
    hash ^= conversationPairId.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
