import { z } from 'zod';

/**
 * A visitor's verdict on one completed turn of a duel, in compar:IA's words: the first answer was
 * better, the second, both were good, both were bad. The duel's vote stays the final word.
 */
export const TURN_VERDICTS = ['a_better', 'b_better', 'both_good', 'both_bad'] as const;
export const turnVerdictSchema = z.enum(TURN_VERDICTS);
export type TurnVerdict = z.infer<typeof turnVerdictSchema>;

/** The highest turn number a path may name (a duel has far fewer; the store answers the rest). */
const MAX_VERDICT_TURN = 10_000;

/** `PUT /api/v1/duels/{id}/turns/{turn}/verdict`: the path. */
export const turnVerdictParamSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{10,64}$/, 'not a duel id'),
  turn: z
    .string()
    .regex(/^[1-9]\d{0,4}$/, 'not a turn number')
    .transform(Number)
    .pipe(z.number().int().positive().max(MAX_VERDICT_TURN)),
});

/** `PUT /api/v1/duels/{id}/turns/{turn}/verdict`: gives or changes the verdict on a completed turn, until the duel's vote. */
export const turnVerdictRequestSchema = z.strictObject({ verdict: turnVerdictSchema });
export type TurnVerdictRequest = z.infer<typeof turnVerdictRequestSchema>;

/** A verdict as the duel's visitor reads it back: nothing about the models (the vote reveals them). */
export const turnVerdictEntrySchema = z.object({ turn: z.number().int(), verdict: turnVerdictSchema });
export type TurnVerdictEntry = z.infer<typeof turnVerdictEntrySchema>;
export const turnVerdictResponseSchema = z.object({ verdict: turnVerdictEntrySchema });
