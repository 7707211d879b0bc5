import { z } from 'zod';
import { type ReportCategory, typedTextSchema } from './duels';
import type { Side } from './stream-events';

/**
 * The review admin API (`/api/v1/admin/review…`, behind AGORA_ADMIN_TOKEN): conversations flagged
 * by the screening or reported by visitors, a reviewer's decision to include or exclude each one
 * from the open datasets, and the append-only audit log of those decisions.
 */
export const REVIEW_QUEUES = ['pending', 'flagged', 'reported', 'excluded', 'included', 'failed'] as const;
export type ReviewQueue = (typeof REVIEW_QUEUES)[number];

/** Where the personal-data rules found something in a text: its kind and UTF-16 offsets (packages/privacy `findings`). */
export interface PiiSpan {
  kind: string;
  start: number;
  end: number;
}

/**
 * The review queues' filters (the queue itself, and its counts): a language of the conversation, a
 * kind found by either screening layer (`email`, `health`…), and an age window in days.
 */
export const reviewFilterShape = {
  language: z
    .string()
    .regex(/^[a-z]{2,3}$/, 'a language code')
    .optional(),
  rule: z
    .string()
    .regex(/^[a-z][a-z_]{0,39}$/, 'a personal-data kind')
    .optional(),
  /** Conversations at least this many days old. */
  min_age_days: z.coerce.number().int().min(0).max(36_600).optional(),
  /** Conversations at most this many days old. */
  max_age_days: z.coerce.number().int().min(0).max(36_600).optional(),
};
export const reviewFilterSchema = z.strictObject(reviewFilterShape);
export type ReviewFilter = z.infer<typeof reviewFilterSchema>;

export const reviewQueueQuerySchema = z.strictObject({
  queue: z.enum(REVIEW_QUEUES).default('pending'),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  /** The `next_cursor` of the previous page (a page of the same filters). */
  cursor: z.string().min(1).max(200).optional(),
  ...reviewFilterShape,
});
export type ReviewQueueQuery = z.infer<typeof reviewQueueQuerySchema>;

/**
 * Accepted for the scripts written before the console, and ignored: the decision's reviewer is
 * who is signed in (the member's e-mail, or `admin-token`), never a name a body gives.
 */
const ignoredReviewerSchema = typedTextSchema.pipe(z.string().trim().max(100)).optional();

export const reviewDecisionRequestSchema = z.strictObject({
  decision: z.enum(['include', 'exclude']),
  reviewer: ignoredReviewerSchema,
  reason: typedTextSchema.pipe(z.string().trim().max(2000)).optional(),
});
export type ReviewDecisionRequest = z.infer<typeof reviewDecisionRequestSchema>;

export const auditLogQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  duel_id: typedTextSchema.pipe(z.string().min(1).max(100)).optional(),
});

export interface ReviewDecisionBody {
  decision: 'include' | 'exclude';
  reason: string | null;
  reviewer: string;
  decided_at: string;
}

export interface AuditEntryBody {
  id: string;
  duel_id: string;
  decision: 'include' | 'exclude';
  previous_decision: 'include' | 'exclude' | null;
  reason: string | null;
  reviewer: string;
  created_at: string;
}

/** One conversation in a review queue. */
export interface ReviewItemBody {
  duel_id: string;
  created_at: string;
  source: string;
  /** Post-processing state: pending | done | failed, or null when not screened yet. */
  screening: string | null;
  flagged_by: { rules: string[]; model: string[] };
  /** Visitors' reports: of the whole conversation (turn and side null) or of one answer. */
  reports: { category: ReportCategory; reason: string; turn: number | null; side: Side | null; created_at: string }[];
  decision: ReviewDecisionBody | null;
  /** The first prompt, cut to 280 characters. */
  opening: string;
  /** The conversation's languages from the screening, the main one first (null before it ran). */
  languages: string[] | null;
  /** The vote it carries (null: not voted), with the integrity review of that vote if any. */
  vote: { choice: 'a' | 'b' | 'tie' | 'both_bad'; created_at: string } | null;
}

export interface ReviewQueueBody {
  queue: ReviewQueue;
  items: ReviewItemBody[];
  next_cursor: string | null;
}

/** One conversation as a reviewer reads it: every turn with the models named (admins are not blind). */
export interface ReviewConversationBody extends ReviewItemBody {
  turns: {
    turn: number;
    status: string;
    prompt: string;
    /** Where the personal-data rules find something in the prompt (UTF-16 offsets), as they read it now. */
    prompt_findings: PiiSpan[];
    a: { model: string; text: string; findings: PiiSpan[] } | null;
    b: { model: string; text: string; findings: PiiSpan[] } | null;
  }[];
  annotation: {
    languages: string[] | null;
    categories: string[] | null;
    keywords: string[] | null;
    short_summary: string | null;
    model_status: string;
    last_error: string | null;
  } | null;
  audit: AuditEntryBody[];
}

/** `GET /api/v1/admin/votes/flagged`: votes the integrity rules keep out of the leaderboard, newest first. */
export const flaggedVotesSchema = z.object({
  votes: z.array(
    z.object({
      duel_id: z.string(),
      created_at: z.string(),
      choice: z.enum(['a', 'b', 'tie', 'both_bad']),
      model_a: z.string(),
      model_b: z.string(),
      /** What the rules found (too_fast, one_sided, address_burst, favours_one_model). */
      flags: z.array(z.string()),
      /** A reviewer's decision, if any: `count` puts the vote back in the leaderboard, `exclude` keeps it out. */
      review: z.enum(['count', 'exclude']).nullable(),
      /** The first 12 characters of the visitor's and of the address's hash (null for an unknown address): the groups' keys. */
      visitor: z.string(),
      address: z.string().nullable(),
    }),
  ),
});
export type FlaggedVotes = z.infer<typeof flaggedVotesSchema>;

/** `PUT /api/v1/admin/votes/{id}`: a reviewer's decision on a vote. */
export const voteReviewRequestSchema = z.strictObject({
  decision: z.enum(['count', 'exclude']),
  reviewer: ignoredReviewerSchema,
  reason: typedTextSchema.pipe(z.string().trim().max(2000)).optional(),
});
export type VoteReviewRequest = z.infer<typeof voteReviewRequestSchema>;
