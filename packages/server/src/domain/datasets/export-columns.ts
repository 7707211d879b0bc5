import { negativeTags, positiveTags } from '@agora/contract';

/** The file formats an export writes: Parquet (Hugging Face's and DuckDB's) and JSON Lines. */
export const DATASET_FORMATS = ['parquet', 'jsonl'] as const;
export type DatasetFormat = (typeof DATASET_FORMATS)[number];

/**
 * The one registry of exported columns: for each dataset, its columns in file order with their type
 * (as Parquet and JSONL write them), their meaning (as the card documents it) and, for compar:IA's
 * three datasets, where compar:IA's column of the same name lives in Agora. The writers, the card, the
 * compar:IA importer and the exporter's `source_meta` round trip all derive from it. These are the
 * columns of the gated tier; the public tier's are derived from them (dataset-tiers.ts).
 */

export const DATASET_NAMES = ['conversations', 'votes', 'reactions', 'dpo', 'kto', 'reward', 'turn_verdicts', 'dpo_turns'] as const;
export type DatasetName = (typeof DATASET_NAMES)[number];

/**
 * The value type of an exported column, as Parquet and JSONL write it. `date` is a day without a
 * time (the public tier's timestamps, docs/decisions/0008): Parquet DATE, `YYYY-MM-DD` text in JSONL.
 */
export type ColumnType = 'string' | 'int' | 'float' | 'bool' | 'timestamp' | 'date' | 'messages' | 'transcript' | 'strings';

/** One column of an exported dataset, as the writers type it and the card documents it. */
export interface DatasetColumn {
  name: string;
  type: ColumnType;
  description: string;
  /**
   * Set on compar:IA's own columns (`comparia-conversations`, `-votes`, `-reactions`):
   * `modelledBy` names where Agora keeps the value, `null` when only `source_meta` holds it
   * (imported rows; derived or null otherwise). Unset on Agora's own columns.
   */
  comparia?: { modelledBy: string | null };
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

/** What compar:IA's files keep of an answer besides its text. */
export interface MessageMetadata {
  generation_id: string | null;
  output_tokens: number | null;
  /** Seconds from the request to the answer's end. */
  duration: number | null;
}

/**
 * A message of a conversation column of compar:IA's subsets (`transcript`), as compar:IA's files have them: answers
 * also carry their reasoning and metadata (both null when unknown); other messages only role and content.
 */
export type TranscriptMessage =
  ChatMessage | (ChatMessage & { role: 'assistant'; reasoning_content: string | null; metadata: MessageMetadata });

/** compar:IA's seven tags, in its order (4 positive, 3 negative): the arena's own tags. */
export const COMPARIA_TAGS = [...positiveTags, ...negativeTags] as const;

/** An Agora column. */
const col = (name: string, type: ColumnType, description: string): DatasetColumn => ({ name, type, description });
/** A compar:IA column, and where Agora keeps it (`null`: in `source_meta` only). */
const cia = (modelledBy: string | null, name: string, type: ColumnType, description: string): DatasetColumn => ({
  name,
  type,
  description,
  comparia: { modelledBy },
});

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
  cia('duels.model_a', 'model_a_name', 'string', 'model of side A (catalogue id)'),
  cia('duels.model_b', 'model_b_name', 'string', 'model of side B (catalogue id)'),
  cia(null, 'model_pair_name', 'strings', 'the two model ids, sorted'),
  cia(
    'turns.prompt + turn_sides.text (side a)',
    'conversation_a',
    'transcript',
    'side A: system prompt (if any), then user and assistant messages; answers also carry `reasoning_content` and `metadata` (generation id, output tokens, duration in seconds)',
  ),
  cia('turns.prompt + turn_sides.text (side b)', 'conversation_b', 'transcript', 'side B, same shape'),
  cia('complete turns', 'conv_turns', 'int', 'number of user turns exported'),
  cia(
    'duels.external_id',
    'conversation_pair_id',
    'string',
    'public id of the conversation pair (`<conv_a_id>-<conv_b_id>`), shared by conversations, votes and reactions',
  ),
  cia(
    'duels.visitor_hash',
    'visitor_id',
    'string',
    "salted hash of the visitor (imported rows keep their source's public hash): groups one visitor's rows, cannot be traced back",
  ),
  cia('turns.prompt of turn 1', 'opening_msg', 'string', 'first user message'),
];

/** The values of the training-use columns (domain/datasets/training-use.ts). */
const TRAINING_USE_MEANING =
  "`allowed` (open weights under a licence that allows it), `check_licence` (open weights under a licence with conditions: read it first), `evaluation_only` (a proprietary model's answers: evaluation, never training)";

const trainingUsePair = [
  col('training_use_a', 'string', `what side A's answers may be used for: ${TRAINING_USE_MEANING}`),
  col('training_use_b', 'string', "what side B's answers may be used for"),
];

/** The capability labels' column (docs/ranking.md#capability-views, docs/datasets.md#capabilities). */
const CAPABILITIES_MEANING =
  "Agora: capability labels of the conversation: `hard_prompt` (6 of LMArena's 7 criteria) and each criterion, `creative_writing`, `instruction_following` (annotation model), `code`, `math`, `multi_turn`, `long_query` (rules); null before labelling";

/** The near-duplicate prompt cluster's column (docs/ranking.md#duplicate-prompts, docs/datasets.md#duplicate-prompts). */
const PROMPT_CLUSTER_MEANING =
  "Agora: opaque id of the near-duplicate cluster of the conversation's first prompt (normalised text, 5-gram MinHash 128, LSH 32×4, Jaccard ≥ 0.7), the same in every subset and export of this arena; `''` when it has none, null before clustering. Keep one row per `prompt_cluster` to de-duplicate";

const promptCluster = col('prompt_cluster', 'string', PROMPT_CLUSTER_MEANING);

const training = [
  col('language', 'string', "language of the turn's user message (ISO 639-1, else 639-3), else of the conversation"),
  col('categories', 'strings', 'topics of the conversation'),
  col('capabilities', 'strings', CAPABILITIES_MEANING),
  promptCluster,
  col('source_id', 'string', 'conversation_pair_id of the conversation the row comes from'),
  col('turn', 'int', 'user turn the row is about (1 = first)'),
];

const pairTraining = [
  col('model_chosen', 'string', 'model of the chosen answer'),
  col('model_rejected', 'string', 'model of the rejected answer'),
  col('training_use', 'string', `what the pair may be used for, the most restrictive of its two answers: ${TRAINING_USE_MEANING}`),
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

/** The verdicts on single turns (issue 34): compar:IA's per-response arena data in spirit, one row per verdict. */
const TURN_VERDICTS: DatasetDefinition = {
  name: 'turn_verdicts',
  description:
    "one row per verdict on a single turn (A better, B better, both good, both bad), in the spirit of compar:IA's per-response arena data",
  columns: [
    col('conversation_pair_id', 'string', 'public id of the conversation pair, as in conversations, votes and reactions'),
    col('turn', 'int', 'user turn judged (1 = first)'),
    col('msg_rank', 'int', 'the same turn from 0, as compar:IA counts'),
    col('question_id', 'string', '`<conversation_pair_id>-<msg_rank>`, as in reactions'),
    col('date', 'date', 'the day the verdict was last given (UTC); the time of day is withheld'),
    col('model_a_name', 'string', 'model of side A (catalogue id)'),
    col('model_b_name', 'string', 'model of side B (catalogue id)'),
    col('verdict', 'string', "`a_better`, `b_better`, `both_good` or `both_bad` (compar:IA's `choice` values)"),
    col('chosen_model_name', 'string', 'model of the better answer; null for both good or both bad'),
    col('question_content', 'string', 'the user message of the turn'),
    col('response_a', 'string', "side A's answer to it"),
    col('response_b', 'string', "side B's answer to it"),
    ...trainingUsePair,
    col('source', 'string', 'Agora: `arena` (given here) or the imported dataset (`comparia`: its per-response arena data)'),
    col('language', 'string', "language of the turn's user message (ISO 639-1, else 639-3), else of the conversation"),
    col('categories', 'strings', 'topics of the conversation'),
    col('capabilities', 'strings', CAPABILITIES_MEANING),
    promptCluster,
  ],
};

/** TRL preference pairs from the verdicts with a winner, one row per judged turn. */
const DPO_TURNS: DatasetDefinition = {
  name: 'dpo_turns',
  description: 'TRL conversational preference pairs from verdicts on single turns (A better or B better), one row per verdict',
  columns: [
    col('prompt', 'messages', "history up to and including the turn's user message: the side named by `context_from`"),
    col('chosen', 'messages', 'one assistant message: the better answer of that turn'),
    col('rejected', 'messages', "one assistant message: the other side's answer"),
    col('model_chosen', 'string', 'model of the chosen answer'),
    col('model_rejected', 'string', 'model of the rejected answer'),
    col('training_use', 'string', `what the pair may be used for, the most restrictive of its two answers: ${TRAINING_USE_MEANING}`),
    col(
      'context_from',
      'string',
      'whose earlier answers the prompt holds: `shared` (both sides saw exactly this history: a first turn, same system prompt), else `a` or `b`, the chosen side (each side answered its own history; the rejected answer followed the other)',
    ),
    ...training,
  ],
};

export const DATASETS: Readonly<Record<DatasetName, DatasetDefinition>> = {
  conversations: {
    name: 'conversations',
    description: 'one row per conversation pair (compar:IA `comparia-conversations` columns)',
    columns: [
      cia(null, 'id', 'string', 'row id (imported rows: the source id)'),
      cia('duels.created_at', 'timestamp', 'timestamp', 'when the conversation started (UTC)'),
      ...pair,
      cia(null, 'conv_a_id', 'string', 'public id of side A'),
      cia(null, 'conv_b_id', 'string', 'public id of side B'),
      cia(null, 'session_hash', 'string', 'compar:IA session (imported rows only)'),
      cia(null, 'system_prompt_a', 'string', 'system prompt of side A, null when none'),
      cia(null, 'system_prompt_b', 'string', 'system prompt of side B, null when none'),
      cia('duels.mode', 'mode', 'string', 'how the pair was drawn'),
      cia('duels.chosen_models', 'custom_models_selection', 'strings', 'models the visitor picked, when they picked'),
      cia('conversation_annotations.short_summary', 'short_summary', 'string', 'one-line summary by the annotation model'),
      cia('conversation_annotations.keywords', 'keywords', 'strings', 'keywords by the annotation model'),
      cia('conversation_annotations.categories', 'categories', 'strings', 'topics by the annotation model'),
      cia('conversation_annotations.languages', 'languages', 'strings', 'languages of the conversation, most frequent first'),
      cia('turn_sides.output_tokens (sum, side a)', 'total_conv_a_output_tokens', 'int', 'output tokens of side A over the exported turns'),
      cia('turn_sides.output_tokens (sum, side b)', 'total_conv_b_output_tokens', 'int', 'output tokens of side B'),
      cia(null, 'model_a_total_params', 'float', 'total parameters of model A, billions'),
      cia(null, 'model_b_total_params', 'float', 'total parameters of model B, billions'),
      cia(null, 'model_a_active_params', 'float', 'active parameters of model A, billions'),
      cia(null, 'model_b_active_params', 'float', 'active parameters of model B, billions'),
      cia(null, 'total_conv_a_kwh', 'float', "estimated energy of side A's answers, kWh (EcoLogits, compar:IA's per-token formula)"),
      cia(null, 'total_conv_b_kwh', 'float', "estimated energy of side B's answers, kWh"),
      ...trainingUsePair,
      col('source', 'string', 'Agora: `arena` (played here) or the imported dataset (`comparia`)'),
      col('capabilities', 'strings', CAPABILITIES_MEANING),
      promptCluster,
    ],
  },
  votes: {
    name: 'votes',
    description: 'one row per vote on a whole conversation (compar:IA `comparia-votes` columns)',
    columns: [
      cia(null, 'id', 'string', 'row id (imported rows: the source id)'),
      cia('votes.created_at', 'timestamp', 'timestamp', 'when the vote was cast (UTC)'),
      ...pair,
      cia('votes.choice', 'chosen_model_name', 'string', 'model the visitor preferred; null on a tie or both-bad'),
      cia('votes.choice', 'both_equal', 'bool', 'the visitor found both answers equally good (tie)'),
      col('both_bad', 'bool', 'Agora: the visitor found both answers bad (compar:IA has no such vote)'),
      cia(null, 'system_prompt_a', 'string', 'system prompt of side A, null when none'),
      cia(null, 'system_prompt_b', 'string', 'system prompt of side B, null when none'),
      cia(null, 'selected_category', 'string', 'compar:IA legacy (imported rows only)'),
      cia(null, 'is_unedited_prompt', 'bool', 'compar:IA legacy (imported rows only)'),
      cia(null, 'session_hash', 'string', 'compar:IA session (imported rows only)'),
      cia('votes.comment_a', 'conv_comments_a', 'string', 'free comment on side A'),
      cia('votes.comment_b', 'conv_comments_b', 'string', 'free comment on side B'),
      ...COMPARIA_TAGS.flatMap((tag) => [
        cia('votes.tags_a', `conv_${tag}_a`, 'bool', `side A tagged ${TAG_MEANING[tag]}`),
        cia('votes.tags_b', `conv_${tag}_b`, 'bool', `side B tagged ${TAG_MEANING[tag]}`),
      ]),
      ...trainingUsePair,
      col('source', 'string', 'Agora: `arena` or the imported dataset'),
      promptCluster,
    ],
  },
  reactions: {
    name: 'reactions',
    description: 'one row per like or dislike on a single answer (compar:IA `comparia-reactions` columns)',
    columns: [
      cia(null, 'id', 'string', 'row id (imported rows: the source id)'),
      cia('reactions.created_at', 'timestamp', 'timestamp', 'when the reaction was given (UTC)'),
      ...pair,
      cia(null, 'conv_a_id', 'string', 'public id of side A'),
      cia(null, 'conv_b_id', 'string', 'public id of side B'),
      cia('reactions.model_id', 'refers_to_model', 'string', 'model of the answer reacted to'),
      cia(null, 'refers_to_conv_id', 'string', 'conv_a_id or conv_b_id of that answer'),
      cia('reactions.side', 'model_pos', 'string', '`a` or `b`'),
      cia('reactions.turn', 'msg_index', 'int', 'index of the answer in its conversation column (the system message counts)'),
      cia('reactions.turn', 'msg_rank', 'int', 'turn of the answer, from 0'),
      cia(null, 'question_id', 'string', '`<conversation_pair_id>-<msg_rank>`'),
      cia('turns.prompt', 'question_content', 'string', 'the user message answered'),
      cia('turn_sides.text', 'response_content', 'string', 'the answer reacted to'),
      cia(null, 'system_prompt', 'string', "system prompt of the answer's side, null when none"),
      cia(null, 'session_hash', 'string', 'compar:IA session (imported rows only)'),
      cia('reactions.value', 'liked', 'bool', 'thumbs up'),
      cia('reactions.value', 'disliked', 'bool', 'thumbs down'),
      cia('reactions.comment', 'comment', 'string', 'free comment'),
      ...COMPARIA_TAGS.map((tag) => cia('reactions.tags', tag, 'bool', `answer tagged ${TAG_MEANING[tag]}`)),
      cia('conversation_annotations.categories', 'categories', 'strings', "topics of the answer's conversation"),
      cia(null, 'model_a_active_params', 'float', 'active parameters of model A, billions'),
      cia(null, 'model_b_active_params', 'float', 'active parameters of model B, billions'),
      cia('turn_sides.output_tokens (sum, side a)', 'total_conv_a_output_tokens', 'int', 'output tokens of side A over the exported turns'),
      cia('turn_sides.output_tokens (sum, side b)', 'total_conv_b_output_tokens', 'int', 'output tokens of side B'),
      cia(null, 'total_conv_a_kwh', 'float', "estimated energy of side A's answers, kWh"),
      cia(null, 'total_conv_b_kwh', 'float', "estimated energy of side B's answers, kWh"),
      cia(
        null,
        'country',
        'string',
        'where the visitor was, as compar:IA publishes it (imported rows); null for arena rows: Agora does not collect it',
      ),
      cia(null, 'city', 'string', 'as `country`'),
      col('training_use', 'string', `what the answer reacted to may be used for: ${TRAINING_USE_MEANING}`),
      col('source', 'string', 'Agora: `arena` or the imported dataset'),
      promptCluster,
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
      col('training_use', 'string', `what the completion may be used for: ${TRAINING_USE_MEANING}`),
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
  turn_verdicts: TURN_VERDICTS,
  dpo_turns: DPO_TURNS,
};

/** compar:IA's three tables: conversations, votes and reactions. */
export type ComparIaTable = 'conversations' | 'votes' | 'reactions';

export interface ComparIaColumn {
  name: string;
  type: ColumnType;
  /** Where Agora keeps it; `null` = only in `source_meta` (imported rows), derived or null otherwise. */
  modelledBy: string | null;
}

const comparIaColumnsOf = (table: ComparIaTable): ComparIaColumn[] =>
  DATASETS[table].columns.flatMap(({ name, type, comparia }) => (comparia ? [{ name, type, modelledBy: comparia.modelledBy }] : []));

/** compar:IA's columns of each of its tables (those of the registry that carry a compar:IA source), in file order. */
export const COMPARIA_COLUMNS: Readonly<Record<ComparIaTable, readonly ComparIaColumn[]>> = {
  conversations: comparIaColumnsOf('conversations'),
  votes: comparIaColumnsOf('votes'),
  reactions: comparIaColumnsOf('reactions'),
};
