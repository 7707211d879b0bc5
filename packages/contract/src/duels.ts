import { z } from 'zod';
import { modelCardSchema } from './models';
import { sideSchema } from './stream-events';
import { turnVerdictEntrySchema } from './turn-verdicts';

/** How the two models of a duel are drawn. */
export const duelModeSchema = z.enum(['random', 'custom', 'small-models', 'big-vs-small', 'reasoning']);
export type DuelMode = z.infer<typeof duelModeSchema>;

/** compar:IA's reason vocabulary, kept so that datasets stay comparable. */
export const positiveTags = ['useful', 'complete', 'creative', 'clear_formatting'] as const;
export const negativeTags = ['incorrect', 'superficial', 'instructions_not_followed'] as const;
export const tagSchema = z.enum([...positiveTags, ...negativeTags]);
export type Tag = z.infer<typeof tagSchema>;

const tagListSchema = z
  .array(tagSchema)
  .max(positiveTags.length + negativeTags.length)
  .refine((tags) => new Set(tags).size === tags.length, 'tags must not repeat');
/** Control characters (C0, DEL, C1) other than tab and line breaks: NUL is refused by PostgreSQL, the others are never typed. */
const CONTROL_CHARACTER = /(?![\t\n\r])\p{Cc}/u;
/** Half of a UTF-16 surrogate pair without the other half (JSON can carry one as `\ud800`): not Unicode text. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** A letter, digit, punctuation or symbol: what makes a text visible (spaces, joiners and format characters do not). */
const VISIBLE_CHARACTER = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** Whether a text has a visible character: the server's rule for prompts and reasons, for forms to check before sending. */
export const hasVisibleCharacter = (text: string): boolean => VISIBLE_CHARACTER.test(text);

/** The largest turn number a request may name: well above any turn limit, within a 32-bit integer column. */
const MAX_TURN_NUMBER = 10_000;

/** Text a person typed: refused (400) with control characters or broken Unicode, the same on every store. */
export const typedTextSchema = z
  .string()
  .refine((text) => !CONTROL_CHARACTER.test(text), 'contains a control character (such as NUL)')
  .refine((text) => !LONE_SURROGATE.test(text), 'is not valid Unicode text (a lone surrogate)');

const commentSchema = typedTextSchema.pipe(z.string().max(4000));
const localeSchema = z
  .string()
  .max(35)
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'a BCP 47 language tag such as fr or en-GB');
const modelIdSchema = z.string().min(1).max(200);

/** A prompt: at least one character, at most the operator's limit (AGORA_MAX_PROMPT_CHARS). */
export const promptSchema = (maxChars: number) =>
  typedTextSchema.refine(hasVisibleCharacter, 'the prompt has no visible character').pipe(z.string().max(maxChars));

/**
 * `GET /api/v1/challenge`: a signed proof-of-work challenge (ALTCHA, PBKDF2/SHA-256) that the
 * browser solves before it may start a duel, when the operator turned proof of work on.
 */
export const proofChallengeSchema = z.object({
  challenge: z.object({
    parameters: z.object({
      algorithm: z.literal('PBKDF2/SHA-256'),
      nonce: z.string().max(256),
      salt: z.string().max(256),
      cost: z.number().int().positive(),
      keyLength: z.number().int().positive().max(64),
      keyPrefix: z.string().max(128),
      keySignature: z.string().max(256).optional(),
      expiresAt: z.number().int().optional(),
      data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
    }),
    signature: z.string().max(256),
  }),
});
export type ProofChallenge = z.infer<typeof proofChallengeSchema>['challenge'];

/** A solution to a challenge: the counter found and its derived key (hex). */
export const proofSolutionSchema = z.object({
  counter: z.number().int().nonnegative(),
  derivedKey: z.string().regex(/^[0-9a-f]{1,256}$/),
  time: z.number().optional(),
});

/** The proof sent with a new duel: the challenge as it was received and its solution. */
export const proofSchema = z.strictObject({ challenge: proofChallengeSchema.shape.challenge, solution: proofSolutionSchema });
export type Proof = z.infer<typeof proofSchema>;

/** `POST /api/v1/duels`. */
export const createDuelRequestSchema = (maxPromptChars: number) =>
  z
    .strictObject({
      prompt: promptSchema(maxPromptChars),
      mode: duelModeSchema.default('random'),
      models: z.array(modelIdSchema).min(1).max(2).optional(),
      locale: localeSchema.optional(),
      /** A solved proof-of-work challenge (`GET /api/v1/challenge`), when the arena asks for one. */
      proof: proofSchema.optional(),
    })
    .refine((body) => (body.mode === 'custom') === (body.models !== undefined), {
      message: 'models is required with mode custom and only allowed with it',
      path: ['models'],
    })
    .refine((body) => !body.models || new Set(body.models).size === body.models.length, {
      message: 'the two models must differ',
      path: ['models'],
    });
export type CreateDuelRequest = z.infer<ReturnType<typeof createDuelRequestSchema>>;

export const duelCreatedSchema = z.object({ id: z.string(), turn: z.number().int() });

/** `POST /api/v1/duels/{id}/messages`: a follow-up prompt sent to both sides. */
export const followUpRequestSchema = (maxPromptChars: number) => z.strictObject({ prompt: promptSchema(maxPromptChars) });
export const turnCreatedSchema = z.object({ turn: z.number().int() });

export const reactionValueSchema = z.enum(['like', 'dislike']).nullable();

/** `POST /api/v1/duels/{id}/reactions`: like or dislike one finished answer; `value: null` removes it. */
export const reactionRequestSchema = z.strictObject({
  side: sideSchema,
  turn: z.number().int().positive().max(MAX_TURN_NUMBER),
  value: reactionValueSchema,
  tags: tagListSchema.optional(),
  comment: commentSchema.optional(),
});
export type ReactionRequest = z.infer<typeof reactionRequestSchema>;

export const reactionSchema = z.object({
  side: sideSchema,
  turn: z.number().int(),
  value: reactionValueSchema,
  tags: z.array(tagSchema),
  comment: z.string().nullable(),
});
export type Reaction = z.infer<typeof reactionSchema>;
export const reactionResponseSchema = z.object({ reaction: reactionSchema });

export const voteChoiceSchema = z.enum(['a', 'b', 'tie', 'both_bad']);
export type VoteChoice = z.infer<typeof voteChoiceSchema>;

/** `POST /api/v1/duels/{id}/vote`: accepted exactly once, on a duel whose turns all completed. */
export const voteRequestSchema = z.strictObject({
  choice: voteChoiceSchema,
  tags: z.strictObject({ a: tagListSchema.optional(), b: tagListSchema.optional() }).optional(),
  comments: z.strictObject({ a: commentSchema.optional(), b: commentSchema.optional() }).optional(),
});
export type VoteRequest = z.infer<typeof voteRequestSchema>;

/** A quantity known within bounds (energy, carbon): min = max when it is known exactly. */
export const rangeSchema = z.object({ min: z.number(), max: z.number() });

/** An everyday equivalent of an amount of energy or carbon, with its source. */
export const impactEquivalentSchema = z.object({
  kind: z.string(),
  value: z.number(),
  unit: z.string(),
  unit_label: z.string(),
  label: z.string(),
  source: z.object({ name: z.string(), url: z.string() }),
});

/**
 * Energy (Wh) and carbon (g CO2e) of one side's whole conversation, as `{min, max}` ranges (min < max
 * when the model size is uncertain), with everyday equivalents and the method and zone used.
 */
/** An energy class (docs/impact.md#energy-classes): where an energy falls among the catalogue's models' on one reference answer, A the fifth that spends least. */
export const energyClassSchema = z.enum(['A', 'B', 'C', 'D', 'E']);
export type EnergyClass = z.infer<typeof energyClassSchema>;

export const revealImpactSchema = z.object({
  energy_wh: rangeSchema,
  gwp_g: rangeSchema,
  equivalents: z.array(impactEquivalentSchema),
  method: z.string(),
  method_label: z.string(),
  zone: z.string(),
  zone_label: z.string(),
  output_tokens: z.number(),
  size_uncertain: z.boolean(),
  /** The class of this side's energy per answer (its answers' energy over their number); absent when the catalogue makes no classes. */
  energy_class: energyClassSchema.optional(),
});
export type RevealImpact = z.infer<typeof revealImpactSchema>;

/** What the visitor learns about one side after voting. */
export const revealSchema = z.object({
  model: modelCardSchema,
  output_tokens: z.number().int().nonnegative(),
  /** What the answers' output tokens cost at the catalogue's price, in US dollars; absent without a price. */
  output_cost_usd: z.number().nonnegative().optional(),
  /** Absent when the model's size is unknown (EcoLogits has no estimate for it). */
  impact: revealImpactSchema.optional(),
});
export type Reveal = z.infer<typeof revealSchema>;

export const voteResponseSchema = z.object({
  reveal: z.object({ a: revealSchema, b: revealSchema }),
  /**
   * Whether the vote counts in the ranking as far as the arena can judge when it is cast (the
   * integrity rules over the visitor's votes, and the vote's own flags; the address group's rules
   * wait for the next refresh); which rule left it out is never said (docs/arena.md#vote-integrity).
   */
  counted: z.boolean(),
});
export type VoteResponse = z.infer<typeof voteResponseSchema>;

export const duelStatusSchema = z.enum(['streaming', 'ready', 'failed', 'voted']);
export type DuelStatus = z.infer<typeof duelStatusSchema>;

/** `GET /api/v1/duels/{id}`: the transcript; `reveal` only after the vote. */
export const transcriptSchema = z.object({
  id: z.string(),
  status: duelStatusSchema,
  mode: duelModeSchema,
  turns: z.array(
    z.object({
      turn: z.number().int(),
      prompt: z.string(),
      status: z.enum(['streaming', 'complete', 'failed']),
      a: z.object({ text: z.string(), reasoning: z.string().nullable() }),
      b: z.object({ text: z.string(), reasoning: z.string().nullable() }),
    }),
  ),
  reactions: z.array(reactionSchema),
  /** The visitor's verdicts on single turns (absent from servers before them). */
  verdicts: z.array(turnVerdictEntrySchema).optional(),
  vote: z.object({ choice: voteChoiceSchema, tags: z.object({ a: z.array(tagSchema), b: z.array(tagSchema) }) }).optional(),
  reveal: z.object({ a: revealSchema, b: revealSchema }).optional(),
});
export type Transcript = z.infer<typeof transcriptSchema>;

/** Why a visitor reports a conversation or one answer of it; `other` needs a few words of its own. */
export const REPORT_CATEGORIES = ['personal_data', 'harmful', 'misleading', 'other'] as const;
export const reportCategorySchema = z.enum(REPORT_CATEGORIES);
export type ReportCategory = z.infer<typeof reportCategorySchema>;

/**
 * `POST /api/v1/duels/{id}/report`: a visitor flags a conversation, or one answer of it (`turn` and
 * `side` together), for review. `category` defaults to `other`, which needs a `reason` (free text);
 * a body of only `{"reason"}` is still a report of the whole conversation, as it always was.
 */
export const reportRequestSchema = z
  .strictObject({
    category: reportCategorySchema.default('other'),
    reason: typedTextSchema.pipe(z.string().trim().max(2000)).default(''),
    turn: z.number().int().positive().max(MAX_TURN_NUMBER).optional(),
    side: sideSchema.optional(),
  })
  // Visible words: a reason of only zero-width or format characters (which trim keeps) says nothing.
  .refine((body) => body.category !== 'other' || hasVisibleCharacter(body.reason), {
    message: 'a report of category "other" needs a reason',
    path: ['reason'],
  })
  .refine((body) => (body.turn === undefined) === (body.side === undefined), {
    message: 'an answer is named by its turn and its side together',
    path: ['side'],
  });
/** What a client sends (defaults may be left out). */
export type ReportRequest = z.input<typeof reportRequestSchema>;
/** What the server reads, defaults applied. */
export type ParsedReportRequest = z.output<typeof reportRequestSchema>;

export const duelIdParamSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{10,64}$/, 'not a duel id') });
export const streamQuerySchema = z.strictObject({ turn: z.coerce.number().int().positive().max(MAX_TURN_NUMBER).optional() });
