import { z } from 'zod';

const viewSchema = z.object({
  style: z.enum(['plain', 'controlled']),
  language: z.string().nullable(),
  category: z.string().nullable(),
  mode: z.string().nullable(),
  /** A capability view's label (docs/ranking.md#capability-views), its category then null. */
  capability: z.string().nullable().optional(),
});

/** A model's standing in one view of the latest snapshots (only views where it is ranked or provisional). */
export const profileRatingSchema = z.object({
  view: viewSchema,
  rating: z.number(),
  ci_low: z.number(),
  ci_high: z.number(),
  /** Null while provisional. */
  rank: z.number().int().nullable(),
  n_battles: z.number().int(),
});
export type ProfileRating = z.infer<typeof profileRatingSchema>;

/** A direct record on the main board, from the named model's side, and the board's prediction. */
export const pairRecordSchema = z.object({
  opponent: z.string(),
  opponent_name: z.string(),
  wins: z.number().int(),
  ties: z.number().int(),
  both_bad: z.number().int(),
  losses: z.number().int(),
  n: z.number().int(),
  /** (wins + ½ ties + ½ both bad) / n, as the fit counts them; null when they never met. */
  observed: z.number().nullable(),
  /** 1 / (1 + 10^(−Δ/400)) from the overall plain ratings; null unless both are on that board. */
  predicted: z.number().nullable(),
});
export type PairRecord = z.infer<typeof pairRecordSchema>;

const tagCountSchema = z.object({ tag: z.string(), count: z.number().int(), share: z.number() });

/** `GET /api/v1/models/{id}/profile`: the evidence behind a model's rank. */
export const modelProfileSchema = z.object({
  model: z.string(),
  name: z.string(),
  /** When the snapshots and tallies read were computed; null before the first refresh. */
  generated_at: z.string().nullable(),
  ratings: z.array(profileRatingSchema),
  matrix: z.array(pairRecordSchema),
  /** Tags voters ticked for this model's answers: count per tag, share of the answers tagged at all. */
  vote_tags: z.object({ answers: z.number().int(), tags: z.array(tagCountSchema) }),
  /** Reactions to its answers: likes and dislikes, and their tags (share of the reactions). */
  reactions: z.object({ total: z.number().int(), likes: z.number().int(), dislikes: z.number().int(), tags: z.array(tagCountSchema) }),
  /** Counted votes per language on the main board, most first. */
  languages: z.array(z.object({ language: z.string(), votes: z.number().int() })),
});
export type ModelProfile = z.infer<typeof modelProfileSchema>;

/** `GET /api/v1/models/{a}/vs/{b}`: two models' direct record, prediction and ratings side by side. */
export const headToHeadSchema = z.object({
  a: z.object({ model: z.string(), name: z.string() }),
  b: z.object({ model: z.string(), name: z.string() }),
  generated_at: z.string().nullable(),
  /** From a's side. */
  record: pairRecordSchema,
  /** Every view where at least one of them is ranked. */
  views: z.array(z.object({ view: viewSchema, a: profileRatingSchema.nullable(), b: profileRatingSchema.nullable() })),
});
export type HeadToHead = z.infer<typeof headToHeadSchema>;
