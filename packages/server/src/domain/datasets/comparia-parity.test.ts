import { describe, expect, it } from 'vitest';
import { type ColumnType, DATASETS } from './export-columns';

/**
 * Every column of compar:IA's published files, with the type it has there, as notebooks read them.
 * Sources: the SELECT lists of compar:IA's utils/export_dataset.py (conversations and reactions;
 * votes are `SELECT v.*`, whose columns are those of its published votes file), the kWh columns it
 * adds to conversations, and the columns of its current reactions file (categories, active
 * parameters, token and kWh totals, country and city). Agora may add columns; it may not miss one.
 */
const PUBLISHED: Record<'conversations' | 'votes' | 'reactions', Record<string, ColumnType>> = {
  conversations: {
    id: 'int',
    timestamp: 'timestamp',
    model_a_name: 'string',
    model_b_name: 'string',
    conversation_a: 'transcript',
    conversation_b: 'transcript',
    conv_turns: 'int',
    conversation_pair_id: 'string',
    conv_a_id: 'string',
    conv_b_id: 'string',
    session_hash: 'string',
    visitor_id: 'string',
    model_pair_name: 'strings',
    opening_msg: 'string',
    system_prompt_a: 'string',
    system_prompt_b: 'string',
    mode: 'string',
    custom_models_selection: 'strings',
    short_summary: 'string',
    keywords: 'strings',
    categories: 'strings',
    languages: 'strings',
    total_conv_a_output_tokens: 'int',
    total_conv_b_output_tokens: 'int',
    total_conv_a_kwh: 'float',
    total_conv_b_kwh: 'float',
  },
  votes: {
    id: 'int',
    timestamp: 'timestamp',
    model_a_name: 'string',
    model_b_name: 'string',
    model_pair_name: 'strings',
    chosen_model_name: 'string',
    opening_msg: 'string',
    both_equal: 'bool',
    conversation_a: 'transcript',
    conversation_b: 'transcript',
    conv_turns: 'int',
    system_prompt_a: 'string',
    system_prompt_b: 'string',
    selected_category: 'string',
    is_unedited_prompt: 'bool',
    conversation_pair_id: 'string',
    session_hash: 'string',
    visitor_id: 'string',
    conv_comments_a: 'string',
    conv_comments_b: 'string',
    ...Object.fromEntries(
      ['useful', 'complete', 'creative', 'clear_formatting', 'incorrect', 'superficial', 'instructions_not_followed'].flatMap((tag) => [
        [`conv_${tag}_a`, 'bool'],
        [`conv_${tag}_b`, 'bool'],
      ]),
    ),
  },
  reactions: {
    id: 'int',
    timestamp: 'timestamp',
    model_a_name: 'string',
    model_b_name: 'string',
    refers_to_model: 'string',
    msg_index: 'int',
    opening_msg: 'string',
    conversation_a: 'transcript',
    conversation_b: 'transcript',
    model_pos: 'string',
    conv_turns: 'int',
    conversation_pair_id: 'string',
    conv_a_id: 'string',
    conv_b_id: 'string',
    refers_to_conv_id: 'string',
    session_hash: 'string',
    visitor_id: 'string',
    response_content: 'string',
    question_content: 'string',
    liked: 'bool',
    disliked: 'bool',
    comment: 'string',
    useful: 'bool',
    creative: 'bool',
    complete: 'bool',
    clear_formatting: 'bool',
    incorrect: 'bool',
    superficial: 'bool',
    instructions_not_followed: 'bool',
    model_pair_name: 'strings',
    msg_rank: 'int',
    question_id: 'string',
    system_prompt: 'string',
    categories: 'strings',
    model_a_active_params: 'float',
    model_b_active_params: 'float',
    total_conv_a_output_tokens: 'int',
    total_conv_b_output_tokens: 'int',
    total_conv_a_kwh: 'float',
    total_conv_b_kwh: 'float',
    country: 'string',
    city: 'string',
  },
};

/**
 * Where Agora's type differs on purpose. `id`: compar:IA numbers its rows; Agora's row id is a string
 * (the conversation pair id, or `<conv id>-<message index>` for a reaction), documented in the card.
 * A float column accepts integers too.
 */
const compatible = (published: ColumnType, agora: ColumnType, column: string) =>
  published === agora || (column === 'id' && agora === 'string') || (published === 'int' && agora === 'float');

describe('column parity with compar:IA’s published files', () => {
  it.each(Object.keys(PUBLISHED) as (keyof typeof PUBLISHED)[])('%s: every published column, with a compatible type', (dataset) => {
    const agora = new Map(DATASETS[dataset].columns.map((column) => [column.name, column.type]));
    const problems = Object.entries(PUBLISHED[dataset]).flatMap(([column, type]) => {
      const ours = agora.get(column);
      if (ours === undefined) return [`${column}: missing`];
      return compatible(type, ours, column) ? [] : [`${column}: ${type} there, ${ours} here`];
    });
    expect(problems).toEqual([]);
  });
});
