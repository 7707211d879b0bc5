import { COMPARIA_TAGS, type ColumnType } from './comparia-columns';

export const DATASET_NAMES = ['conversations', 'votes', 'reactions', 'dpo', 'kto', 'reward'] as const;
export type DatasetName = (typeof DATASET_NAMES)[number];

/** One column of an exported dataset, as the writers type it and the card documents it. */
export interface DatasetColumn {
  name: string;
  type: ColumnType;
  description: string;
}

export interface DatasetDefinition {
  name: DatasetName;
  description: string;
  columns: readonly DatasetColumn[];
}

/** A row of any dataset: column name → value (null when unknown). Timestamps are ISO-8601 text. */
export type DatasetRow = Record<string, unknown>;

/** A message of a conversation column, as Hugging Face chat datasets have them. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const col = (name: string, type: ColumnType, description: string): DatasetColumn => ({ name, type, description });

const TAG_MEANING: Record<(typeof COMPARIA_TAGS)[number], string> = {
  useful: 'useful',
  complete: 'complete',
  creative: 'creative',
  clear_formatting: 'clearly formatted',
  incorrect: 'incorrect',
  superficial: 'superficial',
  instructions_not_followed: 'not following the instructions',
};

const pair = [
  col('model_a_name', 'string', 'model of side A (catalogue id)'),
  col('model_b_name', 'string', 'model of side B (catalogue id)'),
  col('model_pair_name', 'strings', 'the two model ids, sorted'),
  col('conversation_a', 'messages', 'side A: system prompt (if any), then user and assistant messages'),
  col('conversation_b', 'messages', 'side B, same shape'),
  col('conv_turns', 'int', 'number of user turns exported'),
  col('conversation_pair_id', 'string', 'public id of the conversation pair (`<conv_a_id>-<conv_b_id>`), shared by the three raw datasets'),
  col(
    'visitor_id',
    'string',
    "salted hash of the visitor (imported rows keep their source's public hash): groups one visitor's rows, cannot be traced back",
  ),
  col('opening_msg', 'string', 'first user message'),
];

const training = [
  col('language', 'string', "language of the turn's user message (ISO 639-1, else 639-3), else of the conversation"),
  col('categories', 'strings', 'topics of the conversation'),
  col('source_id', 'string', 'conversation_pair_id of the conversation the row comes from'),
  col('turn', 'int', 'user turn the row is about (1 = first)'),
];

const pairTraining = [
  col('model_chosen', 'string', 'model of the chosen answer'),
  col('model_rejected', 'string', 'model of the rejected answer'),
  col(
    'context_from',
    'string',
    "`shared`: both sides saw exactly this history (a first turn with the same system prompt); `chosen`: the history is the chosen side's (later turns, where the two histories differ)",
  ),
  col(
    'pref_strength',
    'string',
    "`strong`: the visitor's tags back the choice on both sides (a quality of the chosen answer and a defect of the rejected one); `medium`: on one side; `weak`: no tag backs it, or a tag contradicts it",
  ),
  ...training,
];

export const DATASETS: Readonly<Record<DatasetName, DatasetDefinition>> = {
  conversations: {
    name: 'conversations',
    description: 'one row per conversation pair (compar:IA `comparia-conversations` columns)',
    columns: [
      col('id', 'string', 'row id (imported rows: the source id)'),
      col('timestamp', 'timestamp', 'when the conversation started (UTC)'),
      ...pair,
      col('conv_a_id', 'string', 'public id of side A'),
      col('conv_b_id', 'string', 'public id of side B'),
      col('session_hash', 'string', 'compar:IA session (imported rows only)'),
      col('system_prompt_a', 'string', 'system prompt of side A, null when none'),
      col('system_prompt_b', 'string', 'system prompt of side B, null when none'),
      col('mode', 'string', 'how the pair was drawn'),
      col('custom_models_selection', 'strings', 'models the visitor picked, when they picked'),
      col('short_summary', 'string', 'one-line summary by the annotation model'),
      col('keywords', 'strings', 'keywords by the annotation model'),
      col('categories', 'strings', 'topics by the annotation model'),
      col('languages', 'strings', 'languages of the conversation, most frequent first'),
      col('total_conv_a_output_tokens', 'int', 'output tokens of side A over the exported turns'),
      col('total_conv_b_output_tokens', 'int', 'output tokens of side B'),
      col('model_a_total_params', 'float', 'total parameters of model A, billions'),
      col('model_b_total_params', 'float', 'total parameters of model B, billions'),
      col('model_a_active_params', 'float', 'active parameters of model A, billions'),
      col('model_b_active_params', 'float', 'active parameters of model B, billions'),
      col('total_conv_a_kwh', 'float', "estimated energy of side A's answers, kWh (EcoLogits, compar:IA's per-token formula)"),
      col('total_conv_b_kwh', 'float', "estimated energy of side B's answers, kWh"),
      col('source', 'string', 'Agora: `arena` (played here) or the imported dataset (`comparia`)'),
    ],
  },
  votes: {
    name: 'votes',
    description: 'one row per vote on a whole conversation (compar:IA `comparia-votes` columns)',
    columns: [
      col('id', 'string', 'row id (imported rows: the source id)'),
      col('timestamp', 'timestamp', 'when the vote was cast (UTC)'),
      ...pair,
      col('chosen_model_name', 'string', 'model the visitor preferred; null on a tie or both-bad'),
      col('both_equal', 'bool', 'the visitor found both answers equally good (tie)'),
      col('both_bad', 'bool', 'Agora: the visitor found both answers bad (compar:IA has no such vote)'),
      col('system_prompt_a', 'string', 'system prompt of side A, null when none'),
      col('system_prompt_b', 'string', 'system prompt of side B, null when none'),
      col('selected_category', 'string', 'compar:IA legacy (imported rows only)'),
      col('is_unedited_prompt', 'bool', 'compar:IA legacy (imported rows only)'),
      col('session_hash', 'string', 'compar:IA session (imported rows only)'),
      col('conv_comments_a', 'string', 'free comment on side A'),
      col('conv_comments_b', 'string', 'free comment on side B'),
      ...COMPARIA_TAGS.flatMap((tag) => [
        col(`conv_${tag}_a`, 'bool', `side A tagged ${TAG_MEANING[tag]}`),
        col(`conv_${tag}_b`, 'bool', `side B tagged ${TAG_MEANING[tag]}`),
      ]),
      col('source', 'string', 'Agora: `arena` or the imported dataset'),
    ],
  },
  reactions: {
    name: 'reactions',
    description: 'one row per like or dislike on a single answer (compar:IA `comparia-reactions` columns)',
    columns: [
      col('id', 'string', 'row id (imported rows: the source id)'),
      col('timestamp', 'timestamp', 'when the reaction was given (UTC)'),
      ...pair,
      col('conv_a_id', 'string', 'public id of side A'),
      col('conv_b_id', 'string', 'public id of side B'),
      col('refers_to_model', 'string', 'model of the answer reacted to'),
      col('refers_to_conv_id', 'string', 'conv_a_id or conv_b_id of that answer'),
      col('model_pos', 'string', '`a` or `b`'),
      col('msg_index', 'int', 'index of the answer in its conversation column (the system message counts)'),
      col('msg_rank', 'int', 'turn of the answer, from 0'),
      col('question_id', 'string', '`<conversation_pair_id>-<msg_rank>`'),
      col('question_content', 'string', 'the user message answered'),
      col('response_content', 'string', 'the answer reacted to'),
      col('system_prompt', 'string', "system prompt of the answer's side, null when none"),
      col('session_hash', 'string', 'compar:IA session (imported rows only)'),
      col('liked', 'bool', 'thumbs up'),
      col('disliked', 'bool', 'thumbs down'),
      col('comment', 'string', 'free comment'),
      ...COMPARIA_TAGS.map((tag) => col(tag, 'bool', `answer tagged ${TAG_MEANING[tag]}`)),
      col('source', 'string', 'Agora: `arena` or the imported dataset'),
    ],
  },
  dpo: {
    name: 'dpo',
    description: 'TRL conversational preference pairs from votes with a winner, one row per turn',
    columns: [
      col('prompt', 'messages', 'history up to and including the user message'),
      col('chosen', 'messages', "one assistant message: the preferred side's answer"),
      col('rejected', 'messages', "one assistant message: the other side's answer"),
      ...pairTraining,
    ],
  },
  kto: {
    name: 'kto',
    description: 'TRL conversational unpaired preferences from likes/dislikes and from both-bad votes',
    columns: [
      col('prompt', 'messages', "the side's own history up to and including the user message"),
      col('completion', 'messages', 'one assistant message'),
      col('label', 'bool', 'true = desirable (like), false = undesirable (dislike, or both-bad vote)'),
      col('label_source', 'string', '`reaction` (a like or dislike on this answer) or `both_bad_vote`'),
      col('model', 'string', 'model of the completion'),
      ...training,
    ],
  },
  reward: {
    name: 'reward',
    description: 'the dpo pairs in implicit-prompt form (whole conversations) for reward-model trainers',
    columns: [
      col('chosen', 'messages', 'history, then the preferred answer'),
      col('rejected', 'messages', 'the same history, then the other answer'),
      ...pairTraining,
    ],
  },
};
