import { describe, expect, it } from 'vitest';
import { mapComparIaRow, type MappedRow } from './comparia-rows';
import { importedDuelId } from '../../adapters/comparia-ids';
import { ComparIaRowError, timestamp } from './comparia-values';

/** A token counter that counts words: enough to check that style counts are filled in. */
const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;

const pair = {
  conversation_pair_id: 'pair-1',
  timestamp: 1_740_823_200_123,
  model_a_name: 'alpha',
  model_b_name: 'beta',
  conversation_a: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: 'Hello **there**', metadata: { output_tokens: 3, duration: 0.25, generation_id: 'g1' } },
  ],
  conversation_b: [
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: 'Hey', reasoning_content: 'A greeting.' },
  ],
};

const map = (dataset: 'conversations' | 'votes' | 'reactions', row: Record<string, unknown>): MappedRow =>
  mapComparIaRow(dataset, row, { countTokens: words, duelIdOf: importedDuelId });

describe('mapComparIaRow', () => {
  it('turns a conversation pair into a duel with its turns, keeping what Agora does not model', () => {
    const mapped = map('conversations', {
      ...pair,
      id: 7n,
      conv_a_id: 'x',
      system_prompt_a: 'Be brief.',
      mode: null,
      languages: [],
      keywords: ['greeting'],
    });
    if (!('duel' in mapped)) throw new Error('skipped');
    const { duel } = mapped;
    expect(duel).toMatchObject({
      id: importedDuelId('pair-1'),
      externalId: 'pair-1',
      mode: 'random',
      visitorHash: '',
      createdAt: '2025-03-01T10:00:00.123Z',
    });
    expect(JSON.parse(duel.sourceMeta!)).toEqual({ id: '7', conv_a_id: 'x', system_prompt_a: 'Be brief.' });
    expect(duel.turns).toHaveLength(1);
    const [a, b] = duel.turns[0]!.sides;
    expect(a).toMatchObject({ text: 'Hello **there**', outputTokens: 3, durationMs: 250, reasoning: null, status: 'complete' });
    expect(a.style).toEqual({ len: 2, headers: 0, lists: 0, bold: 1 });
    expect(JSON.parse(a.sourceMeta!)).toEqual({ metadata: { output_tokens: 3, duration: 0.25, generation_id: 'g1' } });
    expect(b).toMatchObject({ text: 'Hey', reasoning: 'A greeting.', outputTokens: null, sourceMeta: null });
    expect(mapped.dataset === 'conversations' && mapped.topics).toEqual({
      languages: null,
      categories: null,
      keywords: ['greeting'],
      shortSummary: null,
    });
  });

  it('keeps a system message that is not the system_prompt column as the conversation head', () => {
    const mapped = map('conversations', { ...pair, system_prompt_a: 'Something else' });
    expect('duel' in mapped && JSON.parse(mapped.duel.sourceMeta!)).toMatchObject({
      conversation_a_head: [{ role: 'system', content: 'Be brief.' }],
    });
  });

  it('reads votes: both_bad, both_equal, the chosen name; no choice is skipped', () => {
    const choice = (fields: Record<string, unknown>) => {
      const mapped = map('votes', { ...pair, ...fields });
      return 'vote' in mapped ? mapped.vote.choice : (mapped as { skip: string }).skip;
    };
    expect(choice({ chosen_model_name: 'alpha', both_equal: false })).toBe('a');
    expect(choice({ chosen_model_name: 'beta' })).toBe('b');
    expect(choice({ chosen_model_name: null, both_equal: true })).toBe('tie');
    expect(choice({ chosen_model_name: null, both_equal: false, both_bad: true })).toBe('both_bad');
    expect(choice({ chosen_model_name: null, both_equal: false })).toBe('no outcome');
    expect(() => choice({ chosen_model_name: 'gamma' })).toThrow(ComparIaRowError);
  });

  it('places a reaction by msg_index (the system message counts), msg_rank, or the model it names', () => {
    const reaction = (fields: Record<string, unknown>) => {
      const mapped = map('reactions', { ...pair, liked: false, disliked: true, ...fields });
      if (!('reaction' in mapped)) throw new Error('skipped');
      return [mapped.reaction.turn, mapped.reaction.side, mapped.reaction.value];
    };
    expect(reaction({ model_pos: 'a', msg_index: 2 })).toEqual([1, 'a', 'dislike']);
    expect(reaction({ model_pos: 'b', msg_index: 1 })).toEqual([1, 'b', 'dislike']);
    expect(reaction({ model_pos: 'b', msg_index: 5, msg_rank: 0 })).toEqual([1, 'b', 'dislike']);
    expect(reaction({ model_pos: null, refers_to_model: 'beta', msg_index: 1 })).toEqual([1, 'b', 'dislike']);
    expect(() => reaction({ model_pos: 'a', msg_index: 1 })).toThrow(/msg_index 1 \(msg_rank null\) is not an answer of conversation_a/);
    expect(map('reactions', { ...pair, model_pos: 'a', msg_index: 2, liked: false, disliked: false })).toEqual({
      dataset: 'reactions',
      skip: 'no like or dislike',
    });
  });

  it('refuses messages out of order, and skips a pair without messages', () => {
    expect(() => map('conversations', { ...pair, conversation_b: [{ role: 'assistant', content: 'x' }] })).toThrow(
      'conversation_b[0] is a assistant message where a user message was expected',
    );
    expect(() => map('conversations', { ...pair, conversation_a: '[{"role":"tool","content":"x"}]' })).toThrow(
      'conversation_a[0].role must be system, user or assistant',
    );
    expect(map('conversations', { ...pair, conversation_b: null })).toEqual({ dataset: 'conversations', skip: 'no messages' });
    expect(() => map('conversations', { ...pair, conversation_pair_id: '' })).toThrow('conversation_pair_id must be a non-empty string');
  });
});

describe('timestamp', () => {
  it('reads epoch milliseconds, Dates and text (UTC when the text has no zone)', () => {
    const at = (value: unknown) => timestamp({ timestamp: value }, 'timestamp');
    expect(at(1_740_823_200_123)).toBe('2025-03-01T10:00:00.123Z');
    expect(at(1_740_823_200_123n)).toBe('2025-03-01T10:00:00.123Z');
    expect(at(new Date('2025-03-01T10:00:00.123Z'))).toBe('2025-03-01T10:00:00.123Z');
    expect(at('2025-03-01 10:00:00.123')).toBe('2025-03-01T10:00:00.123Z');
    expect(at('2025-03-01T11:00:00.123+01:00')).toBe('2025-03-01T10:00:00.123Z');
    expect(() => at('yesterday')).toThrow(ComparIaRowError);
    expect(() => at(null)).toThrow('timestamp must be a timestamp');
  });
});
