import type { ImportedDuel, ImportedReaction, ImportedVote } from './imported';
import { COMPARIA_COLUMNS, COMPARIA_TAGS, type ComparIaTable } from '../datasets/export-columns';
import { comparIaSourceMeta, sourceMetaValue } from '../datasets/source-meta';
import type { TokenCounter } from '../ranking/style-features';
import { comparIaOutcome, VoteRowError } from '../ranking/vote-formats';
import { buildTurns, headToKeep, keepTokenTotals, splitConversation, turnOfMessage } from './comparia-conversation';
import {
  ComparIaRowError,
  jsonOrNull,
  optionalBoolean,
  optionalInteger,
  optionalStrings,
  optionalText,
  plainValue,
  requiredText,
  timestamp,
} from './comparia-values';

export const COMPARIA_SOURCE = 'comparia';

/** What compar:IA's screening says of a public conversation (written as a `done` annotation). */
export interface ComparIaTopics {
  languages: string[] | null;
  categories: string[] | null;
  keywords: string[] | null;
  shortSummary: string | null;
}

/** A row the import leaves out, and why. */
export type SkipReason = 'no messages' | 'no outcome' | 'no like or dislike' | 'no messages, and no imported conversation of its id';

export type MappedRow =
  | { dataset: 'conversations'; duel: ImportedDuel; topics: ComparIaTopics }
  | { dataset: 'votes'; duel: ImportedDuel; vote: ImportedVote }
  | { dataset: 'reactions'; duel: ImportedDuel; reaction: ImportedReaction }
  /** A vote or reaction without the conversation's text: it joins the conversation of that id, once the import finds it stored. */
  | { dataset: 'votes' | 'reactions'; joins: string; row: Record<string, unknown> }
  | { dataset: ComparIaTable; skip: SkipReason };

/**
 * What a mapping needs from outside the domain: a token counter for the style counts, and the duel
 * id of a conversation pair (a hash of the pair id, so that re-imports find it: adapters/comparia-ids.ts).
 */
export interface ComparIaMapping {
  countTokens: TokenCounter;
  duelIdOf: (conversationPairId: string) => string;
}

/** Maps one row of a compar:IA dataset file; throws {@link ComparIaRowError} when it cannot be imported. */
export function mapComparIaRow(dataset: ComparIaTable, row: Record<string, unknown>, mapping: ComparIaMapping): MappedRow {
  try {
    const duel = duelOf(dataset, row, mapping);
    if (duel === undefined) {
      // compar:IA's votes and reactions files may leave the text to the conversations file.
      if (dataset === 'conversations') return { dataset, skip: 'no messages' };
      return { dataset, joins: requiredText(row, 'conversation_pair_id'), row };
    }
    if (dataset === 'conversations') return { dataset, duel, topics: topicsOf(row) };
    return mapRowOnDuel(dataset, row, duel);
  } catch (error) {
    if (error instanceof VoteRowError) throw new ComparIaRowError(error.message);
    throw error;
  }
}

/**
 * A vote or reaction row on a conversation: the row's own (`mapComparIaRow`), or for a row without
 * text the imported conversation it names; throws {@link ComparIaRowError} when it cannot be imported.
 */
export function mapRowOnDuel(dataset: 'votes' | 'reactions', row: Record<string, unknown>, duel: ImportedDuel): MappedRow {
  try {
    if (dataset === 'votes') {
      const vote = voteOf(row, duel);
      return vote ? { dataset, duel, vote } : { dataset, skip: 'no outcome' };
    }
    const reaction = reactionOf(row, duel);
    return reaction ? { dataset, duel, reaction } : { dataset, skip: 'no like or dislike' };
  } catch (error) {
    if (error instanceof VoteRowError) throw new ComparIaRowError(error.message);
    throw error;
  }
}

function duelOf(
  dataset: ComparIaTable,
  row: Record<string, unknown>,
  { countTokens, duelIdOf }: ComparIaMapping,
): ImportedDuel | undefined {
  const externalId = requiredText(row, 'conversation_pair_id');
  const modelA = requiredText(row, 'model_a_name');
  const modelB = requiredText(row, 'model_b_name');
  const createdAt = timestamp(row, 'timestamp');
  const a = splitConversation(row, 'conversation_a');
  const b = splitConversation(row, 'conversation_b');
  if (a === undefined || b === undefined) return undefined;
  const meta = sourceMetaOf('conversations', row);
  // a vote's or a reaction's own id is not the conversation's
  if (dataset !== 'conversations') delete meta.id;
  for (const [side, split] of [
    ['a', a],
    ['b', b],
  ] as const) {
    const column = `system_prompt_${side}`;
    // reactions rows carry only their own side's prompt: the system message tells the other
    if (
      row[column] === undefined &&
      split.head.length === 1 &&
      split.head[0]!.role === 'system' &&
      Object.keys(split.head[0]!.extra).length === 0
    ) {
      meta[column] = split.head[0]!.content;
    }
    const head = headToKeep(split, typeof meta[column] === 'string' ? meta[column] : null);
    if (head !== undefined) meta[`conversation_${side}_head`] = head;
  }
  const chosen = optionalStrings(row, 'custom_models_selection');
  const turns = buildTurns(a, b, modelA, modelB, countTokens);
  keepTokenTotals(turns, { a: optionalInteger(row, 'total_conv_a_output_tokens'), b: optionalInteger(row, 'total_conv_b_output_tokens') });
  return {
    id: duelIdOf(externalId),
    source: COMPARIA_SOURCE,
    externalId,
    visitorHash: optionalText(row, 'visitor_id') ?? '',
    mode: optionalText(row, 'mode') ?? 'random',
    modelA,
    modelB,
    chosenModels: chosen === null ? null : JSON.stringify(chosen),
    createdAt,
    sourceMeta: jsonOrNull(meta),
    turns,
  };
}

/**
 * The columns Agora does not model, as the shared column module lists them, each in the type the
 * module gives it (compar:IA's numeric `id` is kept as text, as the export writes it back).
 */
function sourceMetaOf(table: ComparIaTable, row: Record<string, unknown>): Record<string, unknown> {
  const meta = comparIaSourceMeta(table, row) ?? {};
  for (const { name, type, modelledBy } of COMPARIA_COLUMNS[table]) {
    if (modelledBy !== null || meta[name] === undefined) continue;
    const value = sourceMetaValue(meta, name, type);
    if (value !== undefined) meta[name] = value;
  }
  return meta;
}

/** compar:IA's topics; an empty list is no answer, as null is (the export writes both as an empty list). */
function topicsOf(row: Record<string, unknown>): ComparIaTopics {
  const list = (column: string): string[] | null => {
    const values = optionalStrings(row, column);
    return values === null || values.length === 0 ? null : values;
  };
  return {
    languages: list('languages'),
    categories: list('categories'),
    keywords: list('keywords'),
    shortSummary: optionalText(row, 'short_summary'),
  };
}

const tagsOf = (row: Record<string, unknown>, column: (tag: string) => string): string => {
  const tags = COMPARIA_TAGS.filter((tag) => optionalBoolean(row, column(tag)) === true);
  return JSON.stringify(tags);
};

const VOTE_CHOICE = { model_a: 'a', model_b: 'b', tie: 'tie', both_bad: 'both_bad' } as const;

function voteOf(row: Record<string, unknown>, duel: ImportedDuel): ImportedVote | undefined {
  const outcome = comparIaOutcome(row, duel.modelA, duel.modelB);
  if (outcome === undefined) return undefined;
  return {
    duelId: duel.id,
    choice: VOTE_CHOICE[outcome],
    modelA: duel.modelA,
    modelB: duel.modelB,
    tagsA: tagsOf(row, (tag) => `conv_${tag}_a`),
    tagsB: tagsOf(row, (tag) => `conv_${tag}_b`),
    commentA: optionalText(row, 'conv_comments_a'),
    commentB: optionalText(row, 'conv_comments_b'),
    mode: duel.mode,
    createdAt: timestamp(row, 'timestamp'),
    ...rankingData(duel),
    sourceMeta: jsonOrNull(sourceMetaOf('votes', row)),
  };
}

/**
 * What the ranking needs of each side, as the arena fixes it when a vote is cast: style counts summed
 * over the side's complete answers, and its output tokens.
 */
function rankingData(duel: ImportedDuel): Pick<ImportedVote, 'styleA' | 'styleB' | 'tokensA' | 'tokensB'> {
  const sum = (index: 0 | 1) => {
    const style = { len: 0, headers: 0, lists: 0, bold: 0 };
    let tokens = 0;
    for (const turn of duel.turns) {
      const side = turn.sides[index];
      if (side.status !== 'complete' || side.style === null) continue;
      const counts = side.style;
      style.len += counts.len;
      style.headers += counts.headers;
      style.lists += counts.lists;
      style.bold += counts.bold;
      // as the arena does, a locally counted length stands in for tokens the provider did not report
      tokens += side.outputTokens ?? counts.len;
    }
    return { style: JSON.stringify(style), tokens };
  };
  const [a, b] = [sum(0), sum(1)];
  return { styleA: a.style, styleB: b.style, tokensA: a.tokens, tokensB: b.tokens };
}

function reactionOf(row: Record<string, unknown>, duel: ImportedDuel): ImportedReaction | undefined {
  const side = reactionSide(row, duel);
  const liked = optionalBoolean(row, 'liked');
  const disliked = optionalBoolean(row, 'disliked');
  if (liked === true && disliked === true) throw new ComparIaRowError('liked and disliked are both true');
  if (liked !== true && disliked !== true) return undefined;
  const turn = reactionTurn(row, side, duel.turns.length);
  return {
    duelId: duel.id,
    turn,
    side,
    modelId: optionalText(row, 'refers_to_model') ?? (side === 'a' ? duel.modelA : duel.modelB),
    value: liked === true ? 'like' : 'dislike',
    tags: tagsOf(row, (tag) => tag),
    comment: optionalText(row, 'comment'),
    createdAt: timestamp(row, 'timestamp'),
    sourceMeta: jsonOrNull(sourceMetaOf('reactions', row)),
  };
}

/** `model_pos`, or, when a row has none, the side whose model `refers_to_model` names. */
function reactionSide(row: Record<string, unknown>, duel: ImportedDuel): 'a' | 'b' {
  const position = row.model_pos;
  if (position === 'a' || position === 'b') return position;
  const model = position === null || position === undefined ? optionalText(row, 'refers_to_model') : null;
  if (model !== null && duel.modelA !== duel.modelB && (model === duel.modelA || model === duel.modelB))
    return model === duel.modelA ? 'a' : 'b';
  throw new ComparIaRowError(`model_pos must be "a" or "b" (got ${JSON.stringify(plainValue(position)) ?? 'nothing'})`);
}

/**
 * The turn an answer's reaction is about: `msg_index` is the answer's position in its conversation
 * column (the system message counts), so the turn is the number of user messages up to it;
 * `msg_rank` (turn − 1) when the index does not point at an answer.
 */
function reactionTurn(row: Record<string, unknown>, side: 'a' | 'b', turns: number): number {
  const index = optionalInteger(row, 'msg_index');
  const rank = optionalInteger(row, 'msg_rank');
  const turn = (index === null ? undefined : turnOfMessage(row, `conversation_${side}`, index)) ?? (rank === null ? undefined : rank + 1);
  if (turn === undefined || turn < 1 || turn > turns) {
    throw new ComparIaRowError(
      `msg_index ${index ?? 'null'} (msg_rank ${rank ?? 'null'}) is not an answer of conversation_${side} (${turns} turns)`,
    );
  }
  return turn;
}
