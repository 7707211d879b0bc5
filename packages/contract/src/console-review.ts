import { z } from 'zod';
import { typedTextSchema } from './duels';
import { type AuditEntryBody, type ReviewQueue, reviewFilterShape } from './review';

/**
 * The console's review queue and vote integrity (`/api/v1/admin/review-counts`,
 * `/api/v1/admin/review-decisions`, `/api/v1/admin/votes/integrity`): what the review API of
 * review.ts did not say, the counts a reviewer sees beside each queue, decisions on many
 * conversations at once, and the flagged votes' groups and effect on the board.
 */

export const reviewCountsQuerySchema = z.strictObject(reviewFilterShape);

/** How many conversations each queue holds under the filters, and the kinds found in the undecided flagged ones. */
export interface ReviewCountsBody {
  queues: Record<ReviewQueue, number>;
  /** Undecided conversations flagged by each kind, per layer (a conversation with two kinds counts under both). */
  kinds: { kind: string; layer: 'rules' | 'model'; conversations: number }[];
  /** The languages of conversations in the pending queue, for the language filter. */
  languages: string[];
}

/** `POST /api/v1/admin/review-decisions`: one decision for many conversations, in one transaction. */
export const reviewBulkDecisionRequestSchema = z.strictObject({
  duel_ids: z
    .array(typedTextSchema.pipe(z.string().min(1).max(100)))
    .min(1)
    .max(500)
    .refine((ids) => new Set(ids).size === ids.length, 'each conversation once'),
  decision: z.enum(['include', 'exclude']),
  reason: typedTextSchema.pipe(z.string().trim().max(2000)).optional(),
});
export type ReviewBulkDecisionRequest = z.infer<typeof reviewBulkDecisionRequestSchema>;

export interface ReviewBulkDecisionBody {
  /** One audit entry per conversation, in the order asked. */
  audit: AuditEntryBody[];
}

export const integrityQuerySchema = z.strictObject({
  /** The served-model discrepancies of the last this-many hours. */
  hours: z.coerce
    .number()
    .positive()
    .max(24 * 366)
    .default(24 * 7),
  /** Rows per group list (visitors, addresses). */
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

/** `GET /api/v1/admin/votes/integrity`: flagged votes grouped, and what they would do to the main board. */
export const integrityOverviewSchema = z.object({
  /** Votes the rules flag and no reviewer counted, plus votes a reviewer excluded: what the board leaves out. */
  flagged_votes: z.number().int(),
  by_rule: z.array(z.object({ flag: z.string(), votes: z.number().int() })),
  by_visitor: z.array(z.object({ visitor: z.string(), votes: z.number().int(), flags: z.array(z.string()) })),
  by_address: z.array(z.object({ address: z.string(), votes: z.number().int(), visitors: z.number().int(), flags: z.array(z.string()) })),
  /**
   * The main board fitted twice by the leaderboard's own ranking code: as counted (flagged votes out)
   * and with the flagged votes counted; `moved` is the rating with them minus the rating without.
   * Null when either board has too few votes to fit.
   */
  effect: z
    .array(
      z.object({ model: z.string(), counted: z.number().nullable(), with_flagged: z.number().nullable(), moved: z.number().nullable() }),
    )
    .nullable(),
  served_models: z.object({
    since: z.string(),
    models: z.array(
      z.object({
        model: z.string(),
        /** The catalogue's provider type and the model name it is asked for (null: no longer in the catalogue). */
        provider: z.string().nullable(),
        requested: z.string().nullable(),
        served: z.string(),
        answers: z.number().int(),
      }),
    ),
  }),
});
export type IntegrityOverview = z.infer<typeof integrityOverviewSchema>;
