import { publishableComment } from '../privacy';
import type { ExportableAnswer, ExportableConversation, ExportableReaction } from './exportable';
import { COMPARIA_COLUMNS, COMPARIA_TAGS, type ComparIaTable } from './export-columns';
import type { TrainingUse } from './training-use';
import { sourceMetaValue } from './source-meta';
import { withoutGenerationIds } from './public-rows';
import type { ChatMessage, DatasetRow, MessageMetadata, TranscriptMessage } from './export-columns';

/** Public facts of a catalogue model that exports write. */
export interface ExportModelFacts {
  license: string;
  openWeights: boolean;
  /** What its answers may be used for (domain/datasets/training-use.ts). */
  trainingUse: TrainingUse;
  totalParamsB: number | null;
  activeParamsB: number | null;
  /** Energy of one million output tokens (Wh, midpoint), null when the model size is unknown. */
  whPerMillionTokens: number | null;
  systemPrompt: string | null;
}

/** What row builders need besides the conversation: the catalogue and the deployment's public ids. */
export interface RowContext {
  model(modelId: string): ExportModelFacts | undefined;
  /** Public ids of both sides of an arena duel (secret-salted, so they cannot lead back to the duel). */
  sideIds(duelId: string): { a: string; b: string };
  /** The public, salted id of an arena visitor. */
  visitorId(visitorHash: string): string;
  /** The public, salted id of a stored prompt cluster: groups near-duplicate prompts, never leads back to a duel. */
  promptClusterId(cluster: string): string;
}

/** A conversation with what every dataset derives from it, computed once. */
export interface PreparedConversation {
  conversation: ExportableConversation;
  pairId: string;
  convAId: string;
  convBId: string;
  visitorId: string | null;
  /** The public id of its prompt's near-duplicate cluster: '' when it has none, null before clustering. */
  promptCluster: string | null;
  systemPromptA: string | null;
  systemPromptB: string | null;
  /**
   * Each side's messages; answers also carry their reasoning and metadata. compar:IA's subsets write
   * them whole; the training subsets' `messages` columns write role and content only. One object
   * per message, so that each text is encoded once for every subset.
   */
  messagesA: TranscriptMessage[];
  messagesB: TranscriptMessage[];
  /** The same for the public tier: without providers' generation ids (the same lists when there are none). */
  publicMessagesA: TranscriptMessage[];
  publicMessagesB: TranscriptMessage[];
  /** Messages before the first user message of each side (the system prompt, if any). */
  headA: number;
  headB: number;
  modelPair: string[];
}

const meta = (conversation: ExportableConversation, name: string): unknown => sourceMetaValue(conversation.sourceMeta, name, 'string');

export function prepareConversation(conversation: ExportableConversation, context: RowContext): PreparedConversation {
  const arena = conversation.source === 'arena';
  const derived =
    arena || conversation.externalId === null || meta(conversation, 'conv_a_id') === undefined
      ? context.sideIds(conversation.duelId)
      : undefined;
  const convAId = (meta(conversation, 'conv_a_id') as string | undefined) ?? derived!.a;
  const convBId = (meta(conversation, 'conv_b_id') as string | undefined) ?? derived!.b;
  const systemPromptA = arena
    ? (context.model(conversation.modelA)?.systemPrompt ?? null)
    : ((meta(conversation, 'system_prompt_a') as string | undefined) ?? null);
  const systemPromptB = arena
    ? (context.model(conversation.modelB)?.systemPrompt ?? null)
    : ((meta(conversation, 'system_prompt_b') as string | undefined) ?? null);
  const messagesA = head(conversation, 'a', systemPromptA);
  const messagesB = head(conversation, 'b', systemPromptB);
  const headA = messagesA.length;
  const headB = messagesB.length;
  for (const turn of conversation.turns) {
    const user: ChatMessage = { role: 'user', content: turn.prompt };
    messagesA.push(user, transcriptAnswer(turn.a));
    messagesB.push(user, transcriptAnswer(turn.b));
  }
  return {
    conversation,
    pairId: arena || conversation.externalId === null ? `${convAId}-${convBId}` : conversation.externalId,
    convAId,
    convBId,
    visitorId: arena ? context.visitorId(conversation.visitorHash) : conversation.visitorHash || null,
    promptCluster: publicCluster(conversation.promptCluster, context),
    systemPromptA,
    systemPromptB,
    messagesA,
    messagesB,
    publicMessagesA: withoutGenerationIds(messagesA),
    publicMessagesB: withoutGenerationIds(messagesB),
    headA,
    headB,
    modelPair:
      conversation.modelA <= conversation.modelB ? [conversation.modelA, conversation.modelB] : [conversation.modelB, conversation.modelA],
  };
}

/** '' (no complete prompt) and null (not yet clustered) are written as they are: only a real cluster is salted. */
function publicCluster(cluster: string | null | undefined, context: RowContext): string | null {
  if (cluster === undefined || cluster === null) return null;
  return cluster === '' ? '' : context.promptClusterId(cluster);
}

/**
 * An answer as compar:IA's files keep it: text, reasoning and metadata (duration in seconds). An
 * imported answer gives back the metadata it came with; an arena answer's is what the arena measured
 * (it keeps no provider generation id).
 */
function transcriptAnswer(answer: ExportableAnswer): TranscriptMessage {
  const source = answer.sourceMetadata;
  const metadata: MessageMetadata =
    source === null
      ? {
          generation_id: null,
          output_tokens: answer.outputTokens,
          duration: answer.durationMs === null ? null : answer.durationMs / 1000,
        }
      : {
          generation_id: typeof source.generation_id === 'string' ? source.generation_id : null,
          output_tokens: typeof source.output_tokens === 'number' && Number.isInteger(source.output_tokens) ? source.output_tokens : null,
          duration: typeof source.duration === 'number' && Number.isFinite(source.duration) ? source.duration : null,
        };
  return { role: 'assistant', content: answer.text, reasoning_content: answer.reasoning, metadata };
}

const ROLES = new Set(['system', 'user', 'assistant']);

/**
 * What comes before the first user message: the system prompt, as compar:IA puts it first; for
 * an imported side whose head was not exactly that, the head the import kept (`conversation_<side>_head`).
 */
function head(conversation: ExportableConversation, side: 'a' | 'b', systemPrompt: string | null): TranscriptMessage[] {
  const kept = sourceMetaValue(conversation.sourceMeta, `conversation_${side}_head`, 'messages') as
    { role: string; content?: unknown }[] | undefined;
  if (kept !== undefined)
    return kept
      .filter((message) => ROLES.has(message.role))
      .map((message) => ({
        role: message.role as ChatMessage['role'],
        content: typeof message.content === 'string' ? message.content : '',
      }));
  return systemPrompt === null ? [] : [{ role: 'system', content: systemPrompt }];
}

/** Imported rows give back what they came with, for the columns Agora does not model. */
function withSourceMeta(table: ComparIaTable, row: DatasetRow, sourceMeta: Record<string, unknown> | null): DatasetRow {
  if (sourceMeta === null) return row;
  for (const column of COMPARIA_COLUMNS[table]) {
    if (column.modelledBy !== null) continue;
    const value = sourceMetaValue(sourceMeta, column.name, column.type);
    if (value !== undefined) row[column.name] = value;
  }
  return row;
}

/** Columns of the imported conversation that its vote and reaction rows repeat. */
function withPairMeta(row: DatasetRow, conversation: ExportableConversation): DatasetRow {
  for (const name of ['session_hash', 'model_pair_name'] as const) {
    const value = sourceMetaValue(conversation.sourceMeta, name, name === 'session_hash' ? 'string' : 'strings');
    if (value !== undefined) row[name] = value;
  }
  return row;
}

function pairColumns(prepared: PreparedConversation): DatasetRow {
  const { conversation } = prepared;
  return {
    model_a_name: conversation.modelA,
    model_b_name: conversation.modelB,
    model_pair_name: prepared.modelPair,
    conversation_a: prepared.messagesA,
    conversation_b: prepared.messagesB,
    conv_turns: conversation.turns.length,
    conversation_pair_id: prepared.pairId,
    visitor_id: prepared.visitorId,
    opening_msg: conversation.turns[0]!.prompt,
  };
}

function totalTokens(conversation: ExportableConversation, side: 'a' | 'b'): number | null {
  let total: number | null = null;
  for (const turn of conversation.turns) {
    const tokens = turn[side].outputTokens;
    if (tokens !== null) total = (total ?? 0) + tokens;
  }
  return total;
}

const kwh = (facts: ExportModelFacts | undefined, tokens: number | null): number | null =>
  facts?.whPerMillionTokens === null || facts === undefined || tokens === null
    ? null
    : ((facts.whPerMillionTokens / 1_000_000) * tokens) / 1000;

/** An answer of a model outside the catalogue: nobody has read its terms. */
const useOf = (facts: ExportModelFacts | undefined): TrainingUse => facts?.trainingUse ?? 'check_licence';

export function conversationRow(prepared: PreparedConversation, context: RowContext): DatasetRow {
  const { conversation } = prepared;
  const factsA = context.model(conversation.modelA);
  const factsB = context.model(conversation.modelB);
  const tokensA = totalTokens(conversation, 'a');
  const tokensB = totalTokens(conversation, 'b');
  const row: DatasetRow = {
    id: prepared.pairId,
    timestamp: conversation.createdAt,
    ...pairColumns(prepared),
    conv_a_id: prepared.convAId,
    conv_b_id: prepared.convBId,
    session_hash: null,
    system_prompt_a: prepared.systemPromptA,
    system_prompt_b: prepared.systemPromptB,
    mode: conversation.mode,
    custom_models_selection: conversation.chosenModels,
    short_summary: conversation.shortSummary,
    keywords: conversation.keywords,
    categories: conversation.categories,
    languages: conversation.languages,
    total_conv_a_output_tokens: tokensA,
    total_conv_b_output_tokens: tokensB,
    model_a_total_params: factsA?.totalParamsB ?? null,
    model_b_total_params: factsB?.totalParamsB ?? null,
    model_a_active_params: factsA?.activeParamsB ?? null,
    model_b_active_params: factsB?.activeParamsB ?? null,
    total_conv_a_kwh: kwh(factsA, tokensA),
    total_conv_b_kwh: kwh(factsB, tokensB),
    training_use_a: useOf(factsA),
    training_use_b: useOf(factsB),
    source: conversation.source,
    capabilities: conversation.capabilities ?? null,
    prompt_cluster: prepared.promptCluster,
  };
  return withSourceMeta('conversations', row, conversation.sourceMeta);
}

/** The vote row, or null when the conversation has no vote. */
export function voteRow(prepared: PreparedConversation, context: RowContext): DatasetRow | null {
  const { conversation } = prepared;
  const vote = conversation.vote;
  if (vote === null) return null;
  const chosen = vote.choice === 'a' ? conversation.modelA : vote.choice === 'b' ? conversation.modelB : null;
  const row: DatasetRow = {
    id: prepared.pairId,
    timestamp: vote.createdAt,
    ...pairColumns(prepared),
    chosen_model_name: chosen,
    both_equal: vote.choice === 'tie',
    both_bad: vote.choice === 'both_bad',
    system_prompt_a: prepared.systemPromptA,
    system_prompt_b: prepared.systemPromptB,
    selected_category: null,
    is_unedited_prompt: null,
    session_hash: null,
    conv_comments_a: publishableComment(vote.commentA),
    conv_comments_b: publishableComment(vote.commentB),
  };
  for (const tag of COMPARIA_TAGS) {
    row[`conv_${tag}_a`] = vote.tagsA.includes(tag);
    row[`conv_${tag}_b`] = vote.tagsB.includes(tag);
  }
  row.training_use_a = useOf(context.model(conversation.modelA));
  row.training_use_b = useOf(context.model(conversation.modelB));
  row.source = conversation.source;
  row.prompt_cluster = prepared.promptCluster;
  return withSourceMeta('votes', withPairMeta(row, conversation), vote.sourceMeta);
}

/** One row per reaction on an exported turn (a reaction on a turn not exported is left out). */
export function reactionRows(prepared: PreparedConversation, context: RowContext): DatasetRow[] {
  const { conversation } = prepared;
  const rows: DatasetRow[] = [];
  for (const reaction of conversation.reactions) {
    const row = reactionRow(prepared, reaction, context);
    if (row !== null) rows.push(row);
  }
  return rows;
}

function reactionRow(prepared: PreparedConversation, reaction: ExportableReaction, context: RowContext): DatasetRow | null {
  const { conversation } = prepared;
  const turn = conversation.turns.find((candidate) => candidate.turn === reaction.turn);
  if (turn === undefined) return null;
  const systemPrompt = reaction.side === 'a' ? prepared.systemPromptA : prepared.systemPromptB;
  const rank = conversation.turns.indexOf(turn);
  const msgIndex = (reaction.side === 'a' ? prepared.headA : prepared.headB) + 2 * rank + 1;
  const convId = reaction.side === 'a' ? prepared.convAId : prepared.convBId;
  const row: DatasetRow = {
    id: `${convId}-${msgIndex}`,
    timestamp: reaction.createdAt,
    ...pairColumns(prepared),
    conv_a_id: prepared.convAId,
    conv_b_id: prepared.convBId,
    refers_to_model: reaction.modelId,
    refers_to_conv_id: convId,
    model_pos: reaction.side,
    msg_index: msgIndex,
    msg_rank: rank,
    question_id: `${prepared.pairId}-${rank}`,
    question_content: turn.prompt,
    response_content: turn[reaction.side].text,
    system_prompt: systemPrompt,
    session_hash: null,
    liked: reaction.liked,
    disliked: !reaction.liked,
    comment: publishableComment(reaction.comment),
  };
  for (const tag of COMPARIA_TAGS) row[tag] = reaction.tags.includes(tag);
  // The conversation's figures, as compar:IA's reactions file repeats them on every row.
  const factsA = context.model(conversation.modelA);
  const factsB = context.model(conversation.modelB);
  const tokensA = totalTokens(conversation, 'a');
  const tokensB = totalTokens(conversation, 'b');
  Object.assign(row, {
    categories: conversation.categories,
    model_a_active_params: factsA?.activeParamsB ?? null,
    model_b_active_params: factsB?.activeParamsB ?? null,
    total_conv_a_output_tokens: tokensA,
    total_conv_b_output_tokens: tokensB,
    total_conv_a_kwh: kwh(factsA, tokensA),
    total_conv_b_kwh: kwh(factsB, tokensB),
    // compar:IA publishes where its visitors were; Agora does not collect it: always null.
    country: null,
    city: null,
    training_use: useOf(context.model(reaction.modelId)),
  });
  row.source = conversation.source;
  row.prompt_cluster = prepared.promptCluster;
  return withSourceMeta('reactions', withPairMeta(row, conversation), reaction.sourceMeta);
}
