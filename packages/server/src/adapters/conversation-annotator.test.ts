import { describe, expect, it } from 'vitest';
import {
  ANNOTATION_RESPONSE_SCHEMA,
  AnnotationAnswerError,
  buildAnnotationMessages,
  parseAnnotationAnswer,
} from './conversation-annotator';
import { TOPIC_CATEGORIES } from '../domain/annotation/topic-categories';
import { MODEL_CAPABILITIES } from '../domain/annotation/capabilities';

const answer = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    categories: ['Sports'],
    keywords: ['football', 'règles', 'arbitre', 'hors-jeu', 'match'],
    short_summary: 'Rules of football.',
    personal_data: { found: false, kinds: [] },
    ...overrides,
  });

describe('parseAnnotationAnswer', () => {
  it('reads a plain answer and one wrapped in a ```json fence', () => {
    const expected = {
      categories: ['Sports'],
      keywords: ['football', 'règles', 'arbitre', 'hors-jeu', 'match'],
      shortSummary: 'Rules of football.',
      personalData: { found: false, kinds: [] },
    };
    expect(parseAnnotationAnswer(answer())).toEqual(expected);
    expect(parseAnnotationAnswer(`\`\`\`json\n${answer()}\n\`\`\``)).toEqual(expected);
  });

  it('drops unknown categories (Other when none is left), duplicate keywords, and keeps at most 3 categories and 7 keywords', () => {
    const parsed = parseAnnotationAnswer(
      answer({
        categories: ['Sports', 'Sport', 'Arts', 'Education', 'Environment'],
        keywords: ['a', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', ' '],
      }),
    );
    expect(parsed.categories).toEqual(['Sports', 'Arts', 'Education']);
    expect(parsed.keywords).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(parseAnnotationAnswer(answer({ categories: ['Cooking'] })).categories).toEqual(['Other']);
  });

  it('counts "found" without kinds as personal data of kind other, and kinds without "found" as found', () => {
    expect(parseAnnotationAnswer(answer({ personal_data: { found: true, kinds: [] } })).personalData).toEqual({
      found: true,
      kinds: ['other'],
    });
    expect(parseAnnotationAnswer(answer({ personal_data: { found: false, kinds: ['name'] } })).personalData).toEqual({
      found: true,
      kinds: ['name'],
    });
  });

  it('refuses text that is not JSON or not the schema, as a retryable error naming the place', () => {
    expect(() => parseAnnotationAnswer('Sure! {categories:')).toThrow(AnnotationAnswerError);
    expect(() => parseAnnotationAnswer(answer({ personal_data: { found: 'no', kinds: [] } }))).toThrow(/personal_data\.found/);
    expect(() => parseAnnotationAnswer(answer({ personal_data: { found: false, kinds: ['address'] } }))).toThrow(/personal_data\.kinds\.0/);
    expect(() => parseAnnotationAnswer(answer({ extra: 1 }))).toThrow(AnnotationAnswerError);
  });
});

describe('capability labels in the annotation answer', () => {
  it('reads them beside the topics, and keeps the topics when the labels block is malformed or absent', () => {
    const labelled = parseAnnotationAnswer(answer({ capabilities: { specificity: true, creative_writing: 'yes', complexity: false } }));
    expect(labelled.categories).toEqual(['Sports']);
    expect(labelled.capabilities).toEqual({ specificity: true, creative_writing: true, complexity: false });
    expect(parseAnnotationAnswer(answer({ capabilities: 'none' }))).not.toHaveProperty('capabilities');
    expect(parseAnnotationAnswer(answer())).not.toHaveProperty('capabilities');
  });

  it('asks for them in the instructions, with the seven criteria named', () => {
    const instructions = buildAnnotationMessages([{ prompt: 'x', a: 'y', b: 'z' }])[0]!.content;
    for (const label of MODEL_CAPABILITIES) expect(instructions).toContain(`"${label}"`);
  });
});

describe('the annotation call', () => {
  it('sends a strict JSON Schema with every field required', () => {
    const schema = ANNOTATION_RESPONSE_SCHEMA as {
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, { required?: string[] }>;
    };
    expect(schema.required).toEqual(['categories', 'keywords', 'short_summary', 'personal_data', 'capabilities']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.personal_data!.required).toEqual(['found', 'kinds']);
    expect(schema.properties.capabilities!.required).toEqual([...MODEL_CAPABILITIES]);
  });

  it("names the classes of personal data of the arena's guide: names, addresses, phone numbers, e-mails, id numbers, medical details", () => {
    const instructions = buildAnnotationMessages([{ prompt: 'x', a: 'y', b: 'z' }])[0]!.content;
    for (const words of ['names', 'postal addresses', 'phone numbers', 'e-mail addresses', 'identity numbers', 'medical details'])
      expect(instructions).toContain(words);
  });

  it('lists every category in the instructions and clips very long messages', () => {
    const messages = buildAnnotationMessages([{ prompt: 'x'.repeat(20_000), a: 'court', b: 'réponse' }]);
    for (const category of TOPIC_CATEGORIES) expect(messages[0]!.content).toContain(JSON.stringify(category));
    const sent = JSON.parse(messages[1]!.content) as { conversation: { prompt: string; answer_a: string }[] };
    expect(sent.conversation[0]!.prompt.length).toBeLessThan(12_100);
    expect(sent.conversation[0]!.answer_a).toBe('court');
  });
});
