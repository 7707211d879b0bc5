/**
 * compar:IA's public dataset columns (`comparia-conversations`, `comparia-votes`,
 * `comparia-reactions`, as `utils/export_dataset.py` selects them), with where Agora models each
 * one. The one mapping both directions use: `agora import comparia` keeps the columns Agora does
 * not model in `source_meta` ({@link comparIaSourceMeta}), and `agora export` gives them back
 * ({@link sourceMetaValue}) or derives them when a row has none.
 */

/** The value type of an exported column, as Parquet and JSONL write it. */
export type ColumnType = 'string' | 'int' | 'float' | 'bool' | 'timestamp' | 'messages' | 'strings';

export interface ComparIaColumn {
  name: string;
  type: ColumnType;
  /** Where Agora keeps it; `null` = only in `source_meta` (imported rows), derived or null otherwise. */
  modelledBy: string | null;
}

export type ComparIaTable = 'conversations' | 'votes' | 'reactions';

const column = (name: string, type: ColumnType, modelledBy: string | null = null): ComparIaColumn => ({ name, type, modelledBy });

/** The seven tags of compar:IA, in its order (4 positive, 3 negative). */
export const COMPARIA_TAGS = [
  'useful',
  'complete',
  'creative',
  'clear_formatting',
  'incorrect',
  'superficial',
  'instructions_not_followed',
] as const;

const pairColumns = [
  column('model_a_name', 'string', 'duels.model_a'),
  column('model_b_name', 'string', 'duels.model_b'),
  column('conversation_a', 'messages', 'turns.prompt + turn_sides.text (side a)'),
  column('conversation_b', 'messages', 'turns.prompt + turn_sides.text (side b)'),
  column('conv_turns', 'int', 'complete turns'),
  column('conversation_pair_id', 'string', 'duels.external_id'),
  column('visitor_id', 'string', 'duels.visitor_hash'),
  column('model_pair_name', 'strings'),
  column('opening_msg', 'string', 'turns.prompt of turn 1'),
];

export const COMPARIA_COLUMNS: Readonly<Record<ComparIaTable, readonly ComparIaColumn[]>> = {
  conversations: [
    column('id', 'string'),
    column('timestamp', 'timestamp', 'duels.created_at'),
    ...pairColumns,
    column('conv_a_id', 'string'),
    column('conv_b_id', 'string'),
    column('session_hash', 'string'),
    column('system_prompt_a', 'string'),
    column('system_prompt_b', 'string'),
    column('mode', 'string', 'duels.mode'),
    column('custom_models_selection', 'strings', 'duels.chosen_models'),
    column('short_summary', 'string', 'conversation_annotations.short_summary'),
    column('keywords', 'strings', 'conversation_annotations.keywords'),
    column('categories', 'strings', 'conversation_annotations.categories'),
    column('languages', 'strings', 'conversation_annotations.languages'),
    column('total_conv_a_output_tokens', 'int', 'turn_sides.output_tokens (sum, side a)'),
    column('total_conv_b_output_tokens', 'int', 'turn_sides.output_tokens (sum, side b)'),
    column('model_a_total_params', 'float'),
    column('model_b_total_params', 'float'),
    column('model_a_active_params', 'float'),
    column('model_b_active_params', 'float'),
    column('total_conv_a_kwh', 'float'),
    column('total_conv_b_kwh', 'float'),
  ],
  votes: [
    column('id', 'string'),
    column('timestamp', 'timestamp', 'votes.created_at'),
    ...pairColumns,
    column('chosen_model_name', 'string', 'votes.choice'),
    column('both_equal', 'bool', 'votes.choice'),
    column('system_prompt_a', 'string'),
    column('system_prompt_b', 'string'),
    column('selected_category', 'string'),
    column('is_unedited_prompt', 'bool'),
    column('session_hash', 'string'),
    column('conv_comments_a', 'string', 'votes.comment_a'),
    column('conv_comments_b', 'string', 'votes.comment_b'),
    ...COMPARIA_TAGS.flatMap((tag) => [column(`conv_${tag}_a`, 'bool', 'votes.tags_a'), column(`conv_${tag}_b`, 'bool', 'votes.tags_b')]),
  ],
  reactions: [
    column('id', 'string'),
    column('timestamp', 'timestamp', 'reactions.created_at'),
    ...pairColumns,
    column('refers_to_model', 'string', 'reactions.model_id'),
    column('msg_index', 'int', 'reactions.turn'),
    column('model_pos', 'string', 'reactions.side'),
    column('conv_a_id', 'string'),
    column('conv_b_id', 'string'),
    column('refers_to_conv_id', 'string'),
    column('session_hash', 'string'),
    column('response_content', 'string', 'turn_sides.text'),
    column('question_content', 'string', 'turns.prompt'),
    column('liked', 'bool', 'reactions.value'),
    column('disliked', 'bool', 'reactions.value'),
    column('comment', 'string', 'reactions.comment'),
    ...COMPARIA_TAGS.map((tag) => column(tag, 'bool', 'reactions.tags')),
    column('msg_rank', 'int', 'reactions.turn'),
    column('question_id', 'string'),
    column('system_prompt', 'string'),
  ],
};

/**
 * The columns of an imported compar:IA row that Agora does not model, as the JSON object to store
 * in `source_meta` (null when there are none). Values are kept as they came.
 */
export function comparIaSourceMeta(table: ComparIaTable, row: Readonly<Record<string, unknown>>): Record<string, unknown> | null {
  const meta: Record<string, unknown> = {};
  for (const { name, modelledBy } of COMPARIA_COLUMNS[table]) {
    if (modelledBy === null && row[name] !== undefined && row[name] !== null) meta[name] = row[name];
  }
  return Object.keys(meta).length > 0 ? meta : null;
}

/**
 * The value `source_meta` holds for a column, when it holds one of the column's type; undefined
 * otherwise (the export then derives the value). Timestamps come back as ISO-8601 text.
 */
export function sourceMetaValue(meta: Readonly<Record<string, unknown>> | null, name: string, type: ColumnType): unknown {
  if (meta === null) return undefined;
  const value = meta[name];
  if (value === undefined || value === null) return undefined;
  switch (type) {
    case 'string':
      if (typeof value === 'string') return value;
      return typeof value === 'number' || typeof value === 'bigint' ? String(value) : undefined;
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
    case 'float':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'bool':
      return typeof value === 'boolean' ? value : undefined;
    case 'timestamp':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : undefined;
    case 'strings':
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
    case 'messages':
      return Array.isArray(value) &&
        value.every((item) => typeof item === 'object' && item !== null && typeof (item as { role?: unknown }).role === 'string')
        ? value
        : undefined;
  }
}
