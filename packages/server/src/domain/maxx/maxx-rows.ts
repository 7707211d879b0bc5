import type { ChatMessage, DatasetColumn, DatasetRow } from '../datasets/export-columns';
import type { MaxxPrefStrength, MaxxSubset } from './maxx-rules';

/** The columns of every subset of the optimised preference set, in file order (docs/datasets.md#maxx-columns). */
export const MAXX_COLUMNS: readonly DatasetColumn[] = [
  {
    name: 'messages',
    type: 'messages',
    description: 'the history, ending on the user turn; earlier assistant turns are the optimal earlier replies',
  },
  { name: 'response_optimal', type: 'string', description: 'the winning reply: plain, substance first' },
  { name: 'response_optimal_styled', type: 'string', description: 'the same content with presentation formatting (headers, bold, lists)' },
  {
    name: 'rejected',
    type: 'string',
    description: 'the primary negative: the harder original reply, or the disliked answer; null when none',
  },
  { name: 'rejected_2', type: 'string', description: 'the other original reply of an arena row; null otherwise' },
  {
    name: 'pref_strength',
    type: 'string',
    description: '`strong`, `medium` or `weak` confidence that the optimal beats `rejected`; null when there is no negative',
  },
  { name: 'incorrect', type: 'bool', description: 'the visitor tagged the rejected answer incorrect (reactions rows; null on arena rows)' },
  {
    name: 'superficial',
    type: 'bool',
    description: 'the visitor tagged the rejected answer superficial (reactions rows; null on arena rows)',
  },
  {
    name: 'instructions_not_followed',
    type: 'bool',
    description: 'the visitor tagged the rejected answer as not following the instructions (reactions rows; null on arena rows)',
  },
  { name: 'conversation_turns', type: 'int', description: 'user turns in `messages`' },
  { name: 'is_multi_turn', type: 'bool', description: '`conversation_turns > 1`' },
  { name: 'prompt_chars', type: 'int', description: 'characters (Unicode code points) of the final user message' },
  {
    name: 'context_from',
    type: 'string',
    description:
      '`optimal` when `rejected` answered the history `messages` shows (a single-turn row), `original` when it answered its own earlier replies, not the optimal ones in `messages` (strict DPO: keep `optimal` rows only)',
  },
  { name: 'language', type: 'string', description: 'ISO 639 code of the final user message' },
  {
    name: 'training_use',
    type: 'string',
    description:
      'what the replies of the row may be used for, the most restrictive of the models that wrote them: `allowed`, `check_licence` or `evaluation_only`',
  },
  { name: 'source', type: 'string', description: '`arena` or `reactions`' },
  {
    name: 'id',
    type: 'string',
    description: 'provenance: `arena:<conversation_pair_id>` or `reactions:<reaction id>` of the open datasets',
  },
];

/** The columns a row must have a value in (the others may be null). */
export const MAXX_REQUIRED = new Set([
  'messages',
  'response_optimal',
  'response_optimal_styled',
  'conversation_turns',
  'is_multi_turn',
  'prompt_chars',
  'context_from',
  'language',
  'training_use',
  'source',
  'id',
]);

/** The visitor's defect tags that a reactions row carries. */
export const DEFECT_TAGS = ['incorrect', 'superficial', 'instructions_not_followed'] as const;

export interface MaxxRowInput {
  subset: MaxxSubset;
  /** Public id of the source row: the conversation pair of an arena vote, the reaction's row id. */
  sourceId: string;
  /** The history up to and including the final user message, earlier replies being the optimal ones. */
  messages: readonly ChatMessage[];
  optimal: string;
  optimalStyled: string;
  rejected: string | null;
  rejected2: string | null;
  prefStrength: MaxxPrefStrength | null;
  /** The visitor's tags on the disliked answer (reactions rows only). */
  defectTags?: readonly string[];
  /** Whether `rejected` answered the history of `messages` (`optimal`) or its own earlier replies (`original`). */
  contextFrom: 'optimal' | 'original';
  language: string;
  trainingUse: string;
}

/** One row of the set, every column in file order. */
export function maxxRow(input: MaxxRowInput): DatasetRow {
  const users = input.messages.filter((message) => message.role === 'user');
  const last = input.messages.at(-1);
  if (!last || last.role !== 'user') throw new Error('the messages of a maxx row must end on the user turn');
  const reactions = input.subset === 'reactions';
  const tag = (name: (typeof DEFECT_TAGS)[number]) => (reactions ? (input.defectTags ?? []).includes(name) : null);
  return {
    messages: input.messages.map(({ role, content }) => ({ role, content })),
    response_optimal: input.optimal,
    response_optimal_styled: input.optimalStyled,
    rejected: input.rejected,
    rejected_2: input.rejected2,
    pref_strength: input.rejected === null ? null : input.prefStrength,
    incorrect: tag('incorrect'),
    superficial: tag('superficial'),
    instructions_not_followed: tag('instructions_not_followed'),
    conversation_turns: users.length,
    is_multi_turn: users.length > 1,
    prompt_chars: [...last.content].length,
    context_from: input.contextFrom,
    language: input.language,
    training_use: input.trainingUse,
    source: reactions ? 'reactions' : 'arena',
    id: `${reactions ? 'reactions' : 'arena'}:${input.sourceId}`,
  };
}
