import { z } from 'zod';

/**
 * Check mode (docs/datasets.md#people-checks): an opted-in visitor sees a stored prompt with the
 * optimised set's reply and an original reply, blind and in random order, and says which is better.
 */

export const checkMessageSchema = z.object({ role: z.enum(['user', 'assistant']), content: z.string() });

/** A pair to judge: the conversation up to the prompt, then the two replies as A and B (which is which is never said). */
export const checkPairSchema = z.object({
  id: z.string(),
  messages: z.array(checkMessageSchema),
  a: z.string(),
  b: z.string(),
});
export type CheckPair = z.infer<typeof checkPairSchema>;

export const CHECK_CHOICES = ['a', 'b', 'tie'] as const;
export const checkChoiceRequestSchema = z.strictObject({ choice: z.enum(CHECK_CHOICES) });
export type CheckChoiceRequest = z.infer<typeof checkChoiceRequestSchema>;

export const checkIdParamSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{10,64}$/) });
