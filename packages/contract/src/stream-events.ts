import { z } from 'zod';

/** Which pane a piece of output belongs to. Sides are assigned by a fair coin per duel. */
export const sideSchema = z.enum(['a', 'b']);
export type Side = z.infer<typeof sideSchema>;

/** First frame of every turn stream. */
export const turnStartEventSchema = z.object({ type: z.literal('turn-start'), turn: z.number().int().positive() });

/** A small piece of one side's answer, appended to what came before (never the whole message again). */
export const textDeltaEventSchema = z.object({ type: z.literal('text-delta'), side: sideSchema, text: z.string() });

/** A piece of a reasoning model's visible reasoning, shown collapsed. */
export const reasoningDeltaEventSchema = z.object({
  type: z.literal('reasoning-delta'),
  side: sideSchema,
  text: z.string(),
});

/** One side finished its answer for this turn. */
export const sideEndEventSchema = z.object({
  type: z.literal('side-end'),
  side: sideSchema,
  output_tokens: z.number().int().nonnegative().nullable(),
});

/**
 * One side failed: the whole turn fails, nothing is shown one-sided and no vote is accepted on it.
 * The message never names a model or a vendor.
 */
export const turnErrorEventSchema = z.object({
  type: z.literal('turn-error'),
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
});

/** Always the last frame of a turn stream. */
export const turnEndEventSchema = z.object({
  type: z.literal('turn-end'),
  turn: z.number().int().positive(),
  status: z.enum(['complete', 'failed']),
});

/**
 * The one vocabulary of the duel stream, shared by the server (which sends it) and the web
 * client (which parses every frame with it). On the wire, `type` is the SSE `event:` field and
 * the other properties are the JSON `data:`.
 */
export const streamEventSchema = z.discriminatedUnion('type', [
  turnStartEventSchema,
  textDeltaEventSchema,
  reasoningDeltaEventSchema,
  sideEndEventSchema,
  turnErrorEventSchema,
  turnEndEventSchema,
]);
export type StreamEvent = z.infer<typeof streamEventSchema>;
export type StreamEventType = StreamEvent['type'];

/** Sent as `x-agora-stream-version` on every stream so that clients can refuse a protocol they do not know. */
export const STREAM_PROTOCOL_VERSION = '1';

/** Parses one SSE frame (event name + JSON data) into a typed event, or returns null when it is not one of ours. */
export function parseStreamFrame(event: string, data: string): StreamEvent | null {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof payload !== 'object' || payload === null) return null;
  const parsed = streamEventSchema.safeParse({ ...payload, type: event });
  return parsed.success ? parsed.data : null;
}
