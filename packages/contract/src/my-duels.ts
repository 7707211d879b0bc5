import { z } from 'zod';
import { duelModeSchema, duelStatusSchema, reactionValueSchema, reportCategorySchema, tagSchema, voteChoiceSchema } from './duels';
import { sideSchema } from './stream-events';

// "My duels": what the arena keeps of the duels of the visitor whose cookie comes with the request
// (GDPR articles 15 and 20: see and take away; article 17: erase). No account: the cookie is the key.

const answerSchema = z.object({ text: z.string(), reasoning: z.string().nullable() });

/** One duel of the visitor, as the store keeps it. */
export const myDuelSchema = z.object({
  id: z.string(),
  mode: duelModeSchema,
  status: duelStatusSchema,
  /** The language the arena was shown in when the duel started. */
  locale: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** A failed turn's answers are withheld for both sides, as in the arena (one side alone is never shown). */
  turns: z.array(
    z.object({
      turn: z.number().int(),
      prompt: z.string(),
      status: z.enum(['streaming', 'complete', 'failed']),
      started_at: z.string(),
      a: answerSchema,
      b: answerSchema,
    }),
  ),
  reactions: z.array(
    z.object({
      turn: z.number().int(),
      side: sideSchema,
      value: reactionValueSchema,
      tags: z.array(tagSchema),
      comment: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  vote: z
    .object({
      choice: voteChoiceSchema,
      tags: z.object({ a: z.array(tagSchema), b: z.array(tagSchema) }),
      comments: z.object({ a: z.string().nullable(), b: z.string().nullable() }),
      created_at: z.string(),
    })
    .nullable(),
  /** Each report of the duel or of one answer, and whether a reviewer has decided on the conversation since. */
  reports: z.array(
    z.object({
      category: reportCategorySchema,
      reason: z.string(),
      turn: z.number().int().nullable(),
      side: sideSchema.nullable(),
      created_at: z.string(),
      state: z.enum(['pending', 'reviewed']),
    }),
  ),
  /** The two models, once the visitor has voted (never before: the duel is blind until the vote). */
  models: z.object({ a: z.object({ id: z.string(), name: z.string() }), b: z.object({ id: z.string(), name: z.string() }) }).nullable(),
});
export type MyDuel = z.infer<typeof myDuelSchema>;

/** `GET /api/v1/duels`: the visitor's duels, newest first. */
export const myDuelsSchema = z.object({ duels: z.array(myDuelSchema) });
export type MyDuels = z.infer<typeof myDuelsSchema>;

/** `GET /api/v1/duels/export`: the same, as a file to keep, with when it was made. */
export const myDuelsExportSchema = myDuelsSchema.extend({ exported_at: z.string() });
export type MyDuelsExport = z.infer<typeof myDuelsExportSchema>;

/** `DELETE /api/v1/duels` and `DELETE /api/v1/duels/{id}`: how many duels were erased. */
export const erasureSchema = z.object({ erased: z.number().int().nonnegative() });
export type Erasure = z.infer<typeof erasureSchema>;
