import { negativeTags, positiveTags } from '@agora/contract';
import { mostRestrictive, type TrainingUse } from './training-use';
import type { ExportableVote } from './exportable';
import type { PreparedConversation } from './conversation-rows';
import type { ChatMessage, DatasetRow } from './export-columns';

export const PREFERENCE_STRENGTHS = ['weak', 'medium', 'strong'] as const;
export type PreferenceStrength = (typeof PREFERENCE_STRENGTHS)[number];

export interface PreferenceOptions {
  /** dpo and reward rows weaker than this are left out. */
  minStrength: PreferenceStrength;
  /** Whether answers of this model may be published in training sets (licence filters). */
  modelAllowed(modelId: string): boolean;
  /** What answers of this model may be used for (domain/datasets/training-use.ts). */
  trainingUse(modelId: string): TrainingUse;
}

export interface PreferenceRows {
  dpo: DatasetRow[];
  reward: DatasetRow[];
  kto: DatasetRow[];
}

const positive = new Set<string>(positiveTags);
const negative = new Set<string>(negativeTags);

/**
 * How firmly the visitor's tags back the choice: `strong` when they name a quality of the chosen
 * answer and a defect of the rejected one, `medium` when only one of the two, `weak` when none
 * (or when a tag says the opposite: a defect of the chosen answer or a quality of the rejected one).
 */
export function preferenceStrength(chosenTags: readonly string[], rejectedTags: readonly string[]): PreferenceStrength {
  if (chosenTags.some((tag) => negative.has(tag)) || rejectedTags.some((tag) => positive.has(tag))) return 'weak';
  const support = (chosenTags.some((tag) => positive.has(tag)) ? 1 : 0) + (rejectedTags.some((tag) => negative.has(tag)) ? 1 : 0);
  return PREFERENCE_STRENGTHS[support]!;
}

/** Messages of one side (`head` of them before the first user message) up to and including the user message of the turn at `index`. */
function historyUpTo(messages: readonly ChatMessage[], head: number, index: number): ChatMessage[] {
  return messages.slice(0, head + 2 * index + 1);
}

function turnColumns(prepared: PreparedConversation, index: number): DatasetRow {
  const { conversation } = prepared;
  return {
    language: conversation.promptLanguages[index] ?? conversation.languages?.[0] ?? null,
    categories: conversation.categories,
    capabilities: conversation.capabilities ?? null,
    prompt_cluster: prepared.promptCluster,
    source_id: prepared.pairId,
    turn: conversation.turns[index]!.turn,
  };
}

/** dpo, reward and kto rows of one conversation, turn by turn (TRL conversational formats). */
export function preferenceRows(prepared: PreparedConversation, options: PreferenceOptions): PreferenceRows {
  const rows: PreferenceRows = { dpo: [], reward: [], kto: [] };
  const vote = prepared.conversation.vote;
  if (vote !== null && (vote.choice === 'a' || vote.choice === 'b')) addPairs(prepared, vote, options, rows);
  addUnpaired(prepared, vote, options, rows.kto);
  return rows;
}

function addPairs(prepared: PreparedConversation, vote: ExportableVote, options: PreferenceOptions, rows: PreferenceRows): void {
  const winner = vote.choice as 'a' | 'b';
  const loser = winner === 'a' ? 'b' : 'a';
  const strength = preferenceStrength(winner === 'a' ? vote.tagsA : vote.tagsB, winner === 'a' ? vote.tagsB : vote.tagsA);
  if (PREFERENCE_STRENGTHS.indexOf(strength) < PREFERENCE_STRENGTHS.indexOf(options.minStrength)) return;
  const { conversation } = prepared;
  const messages = winner === 'a' ? prepared.messagesA : prepared.messagesB;
  const head = winner === 'a' ? prepared.headA : prepared.headB;
  // Both sides saw the same history until their answers first differ (usually right after turn 1).
  let shared =
    prepared.headA === prepared.headB &&
    prepared.messagesA
      .slice(0, prepared.headA)
      .every(
        (message, index) => message.content === prepared.messagesB[index]!.content && message.role === prepared.messagesB[index]!.role,
      );
  for (let index = 0; index < conversation.turns.length; index++) {
    const turn = conversation.turns[index]!;
    const chosenModel = turn[winner].modelId;
    const rejectedModel = turn[loser].modelId;
    if (options.modelAllowed(chosenModel) && options.modelAllowed(rejectedModel)) {
      const prompt = historyUpTo(messages, head, index);
      const chosen: ChatMessage = { role: 'assistant', content: turn[winner].text };
      const rejected: ChatMessage = { role: 'assistant', content: turn[loser].text };
      const extra = {
        model_chosen: chosenModel,
        model_rejected: rejectedModel,
        training_use: mostRestrictive([options.trainingUse(chosenModel), options.trainingUse(rejectedModel)]),
        context_from: shared ? 'shared' : 'chosen',
        pref_strength: strength,
        ...turnColumns(prepared, index),
      };
      rows.dpo.push({ prompt, chosen: [chosen], rejected: [rejected], ...extra });
      rows.reward.push({ chosen: [...prompt, chosen], rejected: [...prompt, rejected], ...extra });
    }
    shared &&= turn.a.text === turn.b.text;
  }
}

/** kto rows: each reaction on an exported answer, and every answer of a both-bad vote that has no reaction of its own. */
function addUnpaired(prepared: PreparedConversation, vote: ExportableVote | null, options: PreferenceOptions, kto: DatasetRow[]): void {
  const { conversation } = prepared;
  const reactions = new Map(conversation.reactions.map((reaction) => [`${reaction.turn}:${reaction.side}`, reaction]));
  const bothBad = vote?.choice === 'both_bad';
  if (!bothBad && reactions.size === 0) return;
  for (let index = 0; index < conversation.turns.length; index++) {
    const turn = conversation.turns[index]!;
    for (const side of ['a', 'b'] as const) {
      const reaction = reactions.get(`${turn.turn}:${side}`);
      if ((reaction === undefined && !bothBad) || !options.modelAllowed(turn[side].modelId)) continue;
      const messages = side === 'a' ? prepared.messagesA : prepared.messagesB;
      kto.push({
        prompt: historyUpTo(messages, side === 'a' ? prepared.headA : prepared.headB, index),
        completion: [{ role: 'assistant', content: turn[side].text }],
        label: reaction ? reaction.liked : false,
        label_source: reaction ? 'reaction' : 'both_bad_vote',
        model: turn[side].modelId,
        training_use: options.trainingUse(turn[side].modelId),
        ...turnColumns(prepared, index),
      });
    }
  }
}
