import { z } from 'zod';
import { INTERFACE_LOCALES } from './locales';
import { leaderboardRowSchema } from './leaderboard';

/*
 * The population survey and the board weighted to it (docs/api.md#population-survey): the
 * operator's questions, shown once to a visitor who may answer or skip, and the weighted board.
 */

const identifier = z.string().regex(/^[a-z0-9_]{1,40}$/);

/** `GET /api/v1/survey?locale=…`: the questions in one interface language. */
export const surveyQuerySchema = z.strictObject({ locale: z.enum(INTERFACE_LOCALES).default('fr') });

/** The survey as a visitor reads it: off, or its questions and whether this visitor has answered or skipped it. */
export const surveySchema = z.object({
  enabled: z.boolean(),
  /** `pending`: never answered nor skipped, shown once; the other two: never shown again. */
  status: z.enum(['pending', 'answered', 'skipped']),
  questions: z.array(z.object({ id: z.string(), label: z.string(), options: z.array(z.object({ id: z.string(), label: z.string() })) })),
  /** The visitor's answers (question id → option id), when answered. */
  answers: z.record(z.string(), z.string()).nullable(),
});
export type Survey = z.infer<typeof surveySchema>;

/** `PUT /api/v1/survey`: every question's option id, or a skip. */
export const surveyRequestSchema = z.union([
  z.strictObject({ answers: z.record(identifier, identifier).refine((answers) => Object.keys(answers).length <= 10, 'too many') }),
  z.strictObject({ skipped: z.literal(true) }),
]);
export type SurveyRequest = z.infer<typeof surveyRequestSchema>;

/** A row of the weighted board: the ranking columns of a leaderboard row. */
export const populationRowSchema = leaderboardRowSchema.pick({
  model: true,
  name: true,
  organisation: true,
  rating: true,
  se: true,
  ci_low: true,
  ci_high: true,
  rank: true,
  rank_best: true,
  rank_worst: true,
  tier: true,
  n_battles: true,
  provisional: true,
});

/** `GET /api/v1/leaderboard/population`: the board weighted to the population, or why it is not shown. */
export const populationBoardSchema = z.object({
  enabled: z.boolean(),
  shown: z.boolean(),
  /** Why it is not shown: no survey, too few answered votes or answering visitors, or an option with a share and no respondent. */
  reason: z.enum(['not_configured', 'too_few_votes', 'too_few_visitors', 'margin_unreachable']).nullable(),
  generated_at: z.string().nullable(),
  /** Where the reference margins come from (the operator's words). */
  source: z.string().nullable(),
  threshold: z.object({ min_votes: z.number().int(), min_visitors: z.number().int() }).nullable(),
  /** Arena votes the board could count, those of answering visitors, and their share. */
  n_votes: z.number().int(),
  answered_votes: z.number().int(),
  answered_visitors: z.number().int(),
  answered_share: z.number(),
  /** Kish's effective number of votes (Σw)²/Σw², and the design effect of the weights and clusters (null when not shown). */
  effective_votes: z.number().nullable(),
  design_effect: z.number().nullable(),
  raking: z
    .object({ iterations: z.number().int(), converged: z.boolean(), max_error: z.number(), trim_rounds: z.number().int() })
    .nullable(),
  models: z.array(populationRowSchema),
});
export type PopulationBoardBody = z.infer<typeof populationBoardSchema>;
