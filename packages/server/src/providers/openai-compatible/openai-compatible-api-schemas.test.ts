import { describe, expect, it } from 'vitest';
import { chatCompletionChunkSchema, isPlainChunk } from './openai-compatible-api-schemas';

/** Each field the arena reads, with values of every JSON kind: the fast check may only accept what the schema accepts. */
const values: unknown[] = [undefined, null, 'x', '', 0, 3.5, true, [], ['x'], {}, { text: 'x' }];
const choiceVariants: unknown[] = [
  ...values.map((delta) => ({ delta, finish_reason: null })),
  ...values.map((finish_reason) => ({ delta: {}, finish_reason })),
  ...values.map((content) => ({ delta: { content } })),
  ...values.map((reasoning_content) => ({ delta: { reasoning_content } })),
  ...values.map((reasoning) => ({ delta: { reasoning } })),
  { delta: { content: [{ type: 'text', text: 'Bon' }] } },
  { delta: { content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'hm' }] }] } },
  null,
  'choice',
  [],
];
const chunks: unknown[] = [
  ...values,
  ...values.map((choices) => ({ choices })),
  ...choiceVariants.map((choice) => ({ id: 'c', choices: [choice] })),
  ...choiceVariants.map((choice) => ({ choices: [{ delta: { content: 'ok' } }, choice] })),
  ...values.map((usage) => ({ choices: [], usage })),
  ...values.map((prompt_tokens) => ({ usage: { prompt_tokens } })),
  ...values.map((completion_tokens) => ({ usage: { completion_tokens } })),
  ...values.map((completion_tokens_details) => ({ usage: { completion_tokens_details } })),
  ...values.map((reasoning_tokens) => ({ usage: { completion_tokens_details: { reasoning_tokens } } })),
  ...values.map((model) => ({ model })),
  ...values.map((id) => ({ id })),
  ...values.map((error) => ({ error })),
  ...values.map((message) => ({ error: { message } })),
  ...values.map((code) => ({ error: { code } })),
];

describe('isPlainChunk', () => {
  it('accepts only chunks the schema accepts, and the common chunks of a stream', () => {
    let accepted = 0;
    for (const chunk of chunks) {
      if (!isPlainChunk(chunk)) continue;
      accepted += 1;
      expect(chatCompletionChunkSchema.safeParse(chunk).success, JSON.stringify(chunk)).toBe(true);
    }
    expect(accepted).toBeGreaterThan(40);
    for (const common of [
      {
        id: 'c',
        object: 'chat.completion.chunk',
        model: 'm',
        choices: [{ index: 0, delta: { role: 'assistant', content: 'Bon' }, finish_reason: null }],
      },
      { choices: [{ delta: {}, finish_reason: 'stop' }] },
      { choices: [], usage: { prompt_tokens: 3, completion_tokens: 5, completion_tokens_details: { reasoning_tokens: 2 } } },
      { error: { message: 'overloaded', code: 529 } },
    ])
      expect(isPlainChunk(common)).toBe(true);
  });

  it('leaves typed content parts and fields of another type to the schema', () => {
    expect(isPlainChunk({ choices: [{ delta: { content: [{ type: 'text', text: 'Bon' }] } }] })).toBe(false);
    expect(isPlainChunk({ choices: 'nope' })).toBe(false);
    expect(isPlainChunk({ usage: { prompt_tokens: '3' } })).toBe(false);
    expect(isPlainChunk([])).toBe(false);
  });
});
