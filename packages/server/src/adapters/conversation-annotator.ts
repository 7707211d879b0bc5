import { jsonOfModelAnswer } from './model-json';
import { z } from 'zod';
import type { ModelClient, ModelMessage } from '../providers/spec';
import { completeModelCall } from '../providers/complete-model-call';
import { TOPIC_CATEGORIES, type TopicCategory } from '../domain/annotation/topic-categories';
import { MODEL_CAPABILITIES, type ModelCapabilityAnswer } from '../domain/annotation/capabilities';
import { CAPABILITY_INSTRUCTIONS, capabilitiesOfModelAnswer } from '../domain/annotation/capability-answer';

/**
 * Personal data only a model can see. Rules already catch numbers and addresses precisely; the
 * model is asked for what they cannot: a named private person, health or other sensitive details
 * about someone identifiable.
 */
export const MODEL_PII_KINDS = ['name', 'health', 'contact', 'identifier', 'financial', 'location', 'other'] as const;
export type ModelPiiKind = (typeof MODEL_PII_KINDS)[number];

/** One turn of the conversation as the annotator reads it: the visitor's prompt and both answers. */
export interface AnnotatedTurn {
  prompt: string;
  a: string;
  b: string;
}

/** What the model layer says of one conversation. */
export interface ConversationTopics {
  categories: TopicCategory[];
  keywords: string[];
  shortSummary: string;
  personalData: { found: boolean; kinds: ModelPiiKind[] };
  /** The capability labels the model answered for; absent when it gave none (the rules' labels stand alone). */
  capabilities?: ModelCapabilityAnswer;
}

/** The model's answer is a boundary: validated here, and nowhere else. Lenient where it costs nothing. */
const answerSchema = z.strictObject({
  categories: z.array(z.string()).describe('one to three categories from the list, most relevant first'),
  keywords: z.array(z.string()).describe('5 to 7 keywords; never a name, number or detail that identifies a person'),
  short_summary: z.string().describe('one or two sentences in English; no personal data'),
  personal_data: z.strictObject({
    found: z.boolean().describe('true when the conversation holds personal data of a private person'),
    kinds: z.array(z.enum(MODEL_PII_KINDS)).describe('the kinds found; empty when none'),
  }),
});

/** What the model is asked for: the topics and, read apart and leniently ({@link capabilitiesOfModelAnswer}), the capability labels. */
const responseSchema = answerSchema.extend({
  capabilities: z
    .strictObject(Object.fromEntries(MODEL_CAPABILITIES.map((label) => [label, z.boolean()])))
    .describe("what the visitor's prompts ask for, one boolean per label"),
});

/** The JSON Schema sent as the structured-output format. */
export const ANNOTATION_RESPONSE_SCHEMA = z.toJSONSchema(responseSchema, { target: 'draft-7' }) as Record<string, unknown>;

const INSTRUCTIONS = `You annotate conversations from a public LLM arena before they are published as an open dataset.
A visitor wrote the prompts; two anonymous models (A and B) answered each one.
Return one JSON object with:
- "categories": 1 to 3 of these exact labels, most relevant first: ${TOPIC_CATEGORIES.map((category) => JSON.stringify(category)).join(', ')}.
- "keywords": 5 to 7 short keywords about the subject. Never a person's name, a number or any detail that identifies someone.
- "short_summary": one or two sentences in English saying what the visitor asked for, without any personal data.
- "personal_data": {"found", "kinds"}: does any message contain personal data of a private, identifiable person?
  Look in every prompt and every answer for the classes of personal data an open dataset must never hold: names, postal addresses,
  phone numbers, e-mail addresses, identity numbers (social security, passport, identity card, tax, company numbers of a sole trader)
  and medical details, in any language and however they are written (spelled out, split, disguised).
  Kinds: "name" (a private person named, e.g. the visitor, a relative, a colleague, a patient), "health" (health details about an identifiable person),
  "contact" (e-mail, phone, postal address), "identifier" (ID, social security, passport, licence numbers), "financial" (bank or card details, salary of someone identifiable),
  "location" (where an identifiable person lives or is), "other" (any other detail that identifies a private person).
  NOT personal data: public figures in their public role (politicians, artists, historical people), fictional characters, invented example data
  clearly labelled as such, generic questions about health or law that concern nobody in particular.
${CAPABILITY_INSTRUCTIONS}
Answer with the JSON object only.`;

/** Bounds the size of one call; the deterministic rules still read every character. */
const MAX_CHARS_PER_MESSAGE = 12_000;
const clip = (text: string) => (text.length > MAX_CHARS_PER_MESSAGE ? `${text.slice(0, MAX_CHARS_PER_MESSAGE)} […]` : text);

/** The messages of one annotation call (pure: same conversation, same call). */
export function buildAnnotationMessages(turns: readonly AnnotatedTurn[]): ModelMessage[] {
  const conversation = turns.map((turn, index) => ({
    turn: index + 1,
    prompt: clip(turn.prompt),
    answer_a: clip(turn.a),
    answer_b: clip(turn.b),
  }));
  return [
    { role: 'system', content: INSTRUCTIONS },
    { role: 'user', content: JSON.stringify({ conversation }) },
  ];
}

/** A model answer that is not the JSON we asked for: worth another try, like a cut stream. */
export class AnnotationAnswerError extends Error {
  override readonly name = 'AnnotationAnswerError';
  readonly isRetryable = true;
}

/** Reads the model's answer (a JSON object, possibly in a ```json fence); unknown categories are dropped. */
export function parseAnnotationAnswer(text: string): ConversationTopics {
  const value = jsonOfModelAnswer(text);
  if (value === undefined) {
    throw new AnnotationAnswerError(`the annotation model did not answer JSON: ${JSON.stringify(text.slice(0, 120))}`);
  }
  // The capability labels are read leniently, apart (a malformed block costs those labels, not the topics).
  const { capabilities: _labels, ...topics } = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const parsed = answerSchema.safeParse(typeof value === 'object' && value !== null ? topics : value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AnnotationAnswerError(
      `the annotation model's answer does not match the schema at ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
  }
  const known = new Set<string>(TOPIC_CATEGORIES);
  const categories = [...new Set(parsed.data.categories.map((category) => category.trim()))].filter((category): category is TopicCategory =>
    known.has(category),
  );
  const keywords = [...new Set(parsed.data.keywords.map((keyword) => keyword.trim()).filter(Boolean))].slice(0, 7);
  const kinds = [...new Set(parsed.data.personal_data.kinds)];
  const capabilities = capabilitiesOfModelAnswer(text);
  return {
    ...(capabilities ? { capabilities } : {}),
    categories: categories.length > 0 ? categories.slice(0, 3) : ['Other'],
    keywords,
    shortSummary: parsed.data.short_summary.trim(),
    // A model that says "found" without a kind still found something.
    personalData: {
      found: parsed.data.personal_data.found || kinds.length > 0,
      kinds: parsed.data.personal_data.found && kinds.length === 0 ? ['other'] : kinds,
    },
  };
}

/** The model layer: one structured call per conversation. */
export interface ConversationAnnotator {
  /** Catalogue id of the model, recorded with each annotation. */
  readonly modelId: string;
  annotate(turns: readonly AnnotatedTurn[]): Promise<ConversationTopics>;
}

export function createConversationAnnotator(
  modelId: string,
  client: ModelClient,
  options: { timeoutMs: number; maxOutputTokens?: number },
): ConversationAnnotator {
  return {
    modelId,
    annotate: async (turns) => {
      const completion = await completeModelCall(
        client,
        {
          messages: buildAnnotationMessages(turns),
          temperature: 0,
          maxOutputTokens: options.maxOutputTokens ?? 1024,
          responseFormat: { type: 'json', name: 'conversation_annotation', schema: ANNOTATION_RESPONSE_SCHEMA },
        },
        options.timeoutMs,
      );
      return parseAnnotationAnswer(completion.text);
    },
  };
}
