import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ChatMessage } from '../domain/datasets/export-columns';
import type { ComplaintVerdict, CriticRubric } from '../domain/maxx/maxx-rules';
import type { ModelMessage } from '../providers/spec';
import { jsonOfModelAnswer } from './model-json';

/**
 * The LLM steps of the optimised preference set (docs/datasets.md#maxx-steps): each builds its
 * messages from a versioned prompt file of `maxx-prompts/`, calls its role's model through
 * {@link CallModel}, and validates a structured answer with zod (structured output through JSON
 * Schema, and one parse-and-retry for providers that ignore it). Nothing here decides what a
 * row keeps: the rules of domain/maxx do.
 */

export const MAXX_ROLES = ['generator', 'reviewer', 'critic', 'judge', 'stylist'] as const;
export type MaxxRole = (typeof MAXX_ROLES)[number];

export interface StepCall {
  role: MaxxRole;
  /** For the judge step: which judge of the panel (0 first). */
  judge?: number;
  /** The step's name, for the cache, logs and the cost per role. */
  step: string;
  messages: ModelMessage[];
  responseFormat?: { type: 'json'; name: string; schema: Record<string, unknown> };
  /**
   * Whether an answer is usable (a structured answer that parses): an unusable one is never kept
   * in the cache, so that a later run asks again rather than reading back the same bad answer.
   */
  accept?: (answer: string) => boolean;
}

/** Calls the model of a role and returns its whole answer (the pipeline adds caching, retries and accounting). */
export type CallModel = (call: StepCall) => Promise<string>;

/** A model's answer that is not the JSON its step asks for, even after one retry. */
export class MalformedAnswerError extends Error {
  override readonly name = 'MalformedAnswerError';
}

/** A model's answer that did not end normally (cut on its output budget, filtered), even with a larger budget. */
export class IncompleteAnswerError extends Error {
  override readonly name = 'IncompleteAnswerError';
  constructor(
    message: string,
    readonly finishReason: string,
  ) {
    super(message);
  }
}

const prompt = (name: string) => readFileSync(new URL(`./maxx-prompts/${name}.md`, import.meta.url), 'utf8').trim();
const PROMPTS = {
  draft: prompt('draft'),
  draftFix: prompt('draft-fix'),
  review: prompt('review'),
  revise: prompt('revise'),
  critic: prompt('critic'),
  criticReaction: prompt('critic-reaction'),
  judge: prompt('judge'),
  style: prompt('style'),
  styleCheck: prompt('style-check'),
};

/** Changes with any prompt: outcomes recorded under other prompts are not reused. */
export const MAXX_PROMPTS_DIGEST = createHash('sha256').update(JSON.stringify(PROMPTS)).digest('hex').slice(0, 16);

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_match, key: string) => values[key] ?? '');

const reviewSchema = z.object({ defects: z.array(z.string()) });
const criticSchema = z.object({
  correct: z.boolean(),
  complete: z.boolean(),
  follows_instructions: z.boolean(),
  right_language: z.boolean(),
  no_invented_facts: z.boolean(),
  // A default, not optional: the schema sent lists it as required (OpenAI's strict structured output refuses optional
  // properties), while an answer from a provider that ignores the schema may still leave it out.
  notes: z.string().default(''),
});
const criticReactionSchema = criticSchema.extend({
  fixes_defect: z.boolean(),
  complaint: z.enum(['valid', 'partly', 'mistaken']),
});
// The reasons come first, in the schema's order too: a verdict written after its reasons follows from them.
const judgeSchema = z.object({
  reasons: z.string(),
  better: z.enum(['A', 'B', 'tie']),
});
const styleCheckSchema = z.object({ same_content: z.boolean(), differences: z.array(z.string()).default([]) });

/** The JSON Schema sent as structured output: every property required, and no `$schema` (strict modes refuse it). */
const jsonFormat = (name: string, schema: z.ZodType) => {
  const { $schema: _meta, ...rules } = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
  return { type: 'json' as const, name, schema: rules };
};

/** The conversation as text inside one message, for the steps that read it rather than continue it. */
function transcript(history: readonly ChatMessage[]): string {
  return history.map((message) => `[${message.role}]\n${message.content}`).join('\n\n');
}

export interface CriticVerdict {
  rubric: CriticRubric;
  /** Set when the item is a disliked answer. */
  reaction?: { fixesDefect: boolean; complaint: ComplaintVerdict };
}

export interface ReactionContext {
  disliked: string;
  tags: readonly string[];
  comment: string | null;
}

/**
 * The text of reply A or B in a judge step's message (each reply is fenced by <<< and >>>): what a
 * stand-in judge reads (the dry run's, the tests' and the bench's fakes), never the conversation around it.
 */
export function judgedReplyText(message: string, name: 'A' | 'B'): string {
  const opening = `Reply ${name}:\n<<<\n`;
  const start = message.lastIndexOf(opening);
  if (start < 0) return '';
  const end = message.indexOf('\n>>>', start + opening.length);
  return message.slice(start + opening.length, end < 0 ? undefined : end);
}

/** A reply for the judge, after the conversation it answered (each reply may have answered other earlier replies). */
export interface JudgedReply {
  history: readonly ChatMessage[];
  text: string;
}

/** The generator's system prompt: the task, and for a disliked answer what the visitor disliked in it. */
function generatorPrompt(language: string, fix: ReactionContext | undefined): string {
  const base = fill(PROMPTS.draft, { language });
  if (!fix) return base;
  return `${base}\n\n${fill(PROMPTS.draftFix, { tags: fix.tags.join(', ') || 'none', comment: fix.comment ?? 'none', disliked: fix.disliked })}`;
}

export class MaxxSteps {
  constructor(private readonly call: CallModel) {}

  /**
   * Step 1: the generator answers the conversation in its language; for a disliked answer, it is
   * shown that answer, the visitor's tags and comment, and writes a reply that fixes the defect.
   */
  draft(history: readonly ChatMessage[], language: string, fix?: ReactionContext): Promise<string> {
    return this.call({
      role: 'generator',
      step: 'draft',
      messages: [{ role: 'system', content: generatorPrompt(language, fix) }, ...history],
    });
  }

  /** Step 2a: the reviewer lists the draft's concrete defects. */
  async review(history: readonly ChatMessage[], draft: string): Promise<string[]> {
    const answer = await this.structured('reviewer', 'review', reviewSchema, [
      { role: 'system', content: PROMPTS.review },
      { role: 'user', content: `Conversation:\n${transcript(history)}\n\nDraft reply:\n<<<\n${draft}\n>>>` },
    ]);
    return answer.defects.filter((defect) => defect.trim() !== '');
  }

  /** Step 2b: the generator revises its draft against the defects. */
  revise(
    history: readonly ChatMessage[],
    draft: string,
    defects: readonly string[],
    language: string,
    fix?: ReactionContext,
  ): Promise<string> {
    return this.call({
      role: 'generator',
      step: 'revise',
      messages: [
        { role: 'system', content: generatorPrompt(language, fix) },
        ...history,
        { role: 'assistant', content: draft },
        { role: 'user', content: fill(PROMPTS.revise, { language, defects: defects.map((defect) => `- ${defect}`).join('\n') }) },
      ],
    });
  }

  /** Step 3 (and 5 for a disliked answer): the critic's absolute rubric. */
  async critic(history: readonly ChatMessage[], reply: string, language: string, reaction?: ReactionContext): Promise<CriticVerdict> {
    const system = fill(PROMPTS.critic, {
      language,
      reaction: reaction
        ? `${fill(PROMPTS.criticReaction, { tags: reaction.tags.join(', ') || 'none', comment: reaction.comment ?? 'none', disliked: reaction.disliked })}\n`
        : '',
      reaction_fields: reaction ? ', "fixes_defect", "complaint"' : '',
    });
    const messages: ModelMessage[] = [
      { role: 'system', content: system },
      { role: 'user', content: `Conversation:\n${transcript(history)}\n\nCandidate reply:\n<<<\n${reply}\n>>>` },
    ];
    if (reaction) {
      const answer = await this.structured('critic', 'critic-reaction', criticReactionSchema, messages);
      return { rubric: rubricOf(answer), reaction: { fixesDefect: answer.fixes_defect, complaint: answer.complaint } };
    }
    return { rubric: rubricOf(await this.structured('critic', 'critic', criticSchema, messages)) };
  }

  /**
   * Step 4: one blind ordering of a pair, by one judge of the panel, formatting already neutralised
   * by the caller. When the two replies answered different earlier replies, each is shown after its
   * own conversation: a reply is judged on what it answered, never on the other's history.
   */
  async judge(first: JudgedReply, second: JudgedReply, judge = 0): Promise<{ better: 'A' | 'B' | 'tie'; reasons: string }> {
    const reply = (name: string, text: string) => `Reply ${name}:\n<<<\n${text}\n>>>`;
    const sameHistory = JSON.stringify(first.history) === JSON.stringify(second.history);
    const content = sameHistory
      ? `Conversation:\n${transcript(first.history)}\n\n${reply('A', first.text)}\n\n${reply('B', second.text)}`
      : `Conversation answered by reply A:\n${transcript(first.history)}\n\n${reply('A', first.text)}\n\n` +
        `Conversation answered by reply B:\n${transcript(second.history)}\n\n${reply('B', second.text)}`;
    const answer = await this.structured(
      'judge',
      'judge',
      judgeSchema,
      [
        { role: 'system', content: PROMPTS.judge },
        { role: 'user', content },
      ],
      judge,
    );
    return { better: answer.better, reasons: answer.reasons };
  }

  /** Step 6: the styled variant, then a check that its content is unchanged. */
  async style(reply: string): Promise<{ styled: string; sameContent: boolean }> {
    const styled = await this.call({
      role: 'stylist',
      step: 'style',
      messages: [{ role: 'user', content: fill(PROMPTS.style, { reply }) }],
    });
    const check = await this.structured('critic', 'style-check', styleCheckSchema, [
      { role: 'user', content: fill(PROMPTS.styleCheck, { plain: reply, styled }) },
    ]);
    return { styled, sameContent: check.same_content };
  }

  /** A JSON answer of the schema: asked for as structured output, retried once with the error when it is not. */
  private async structured<Schema extends z.ZodType>(
    role: MaxxRole,
    step: string,
    schema: Schema,
    messages: ModelMessage[],
    judge?: number,
  ): Promise<z.infer<Schema>> {
    const responseFormat = jsonFormat(step.replace(/\W/g, '_'), schema);
    const accept = (answer: string) => parseJsonAnswer(answer, schema).success;
    const panel = judge === undefined ? {} : { judge };
    const first = await this.call({ role, step, messages, responseFormat, accept, ...panel });
    const parsed = parseJsonAnswer(first, schema);
    if (parsed.success) return parsed.data;
    const retried = await this.call({
      role,
      step: `${step}-retry`,
      responseFormat,
      accept,
      ...panel,
      messages: [
        ...messages,
        { role: 'assistant', content: first },
        {
          role: 'user',
          content: `That answer is not the JSON object asked for (${parsed.error}). Answer again with the JSON object only.`,
        },
      ],
    });
    const again = parseJsonAnswer(retried, schema);
    if (again.success) return again.data;
    throw new MalformedAnswerError(`${role} (${step}) did not answer the JSON asked for: ${again.error}`);
  }
}

function rubricOf(answer: z.infer<typeof criticSchema>): CriticRubric {
  return {
    correct: answer.correct,
    complete: answer.complete,
    followsInstructions: answer.follows_instructions,
    rightLanguage: answer.right_language,
    noInventedFacts: answer.no_invented_facts,
  };
}

/** The JSON object of an answer, fenced or not, validated by the schema. */
export function parseJsonAnswer<Schema extends z.ZodType>(
  text: string,
  schema: Schema,
): { success: true; data: z.infer<Schema> } | { success: false; error: string } {
  const value = jsonOfModelAnswer(text);
  if (value === undefined) return { success: false, error: 'not JSON' };
  const result = schema.safeParse(value);
  return result.success ? { success: true, data: result.data } : { success: false, error: z.prettifyError(result.error).slice(0, 300) };
}
