import type { PreparedConversation } from './conversation-rows';
import type { ChatMessage, DatasetRow } from './export-columns';
import type { ExportableTurnVerdict } from './exportable';
import type { PreferenceOptions } from './preference-rows';
import { mostRestrictive } from './training-use';

/**
 * The `turn_verdicts` and `dpo_turns` rows of one conversation: one row per verdict on a turn that
 * was exported (the privacy screening kept the conversation and the turn completed), in compar:IA's
 * words (`a_better`, `b_better`, `both_good`, `both_bad`); and, for a verdict with a winner, a TRL
 * preference pair for that turn alone. Nothing here outlives its conversation: a conversation left
 * out of the export, or erased, takes its verdicts with it.
 */

const SPOKEN: Record<ExportableTurnVerdict['choice'], string> = {
  a: 'a_better',
  b: 'b_better',
  both_good: 'both_good',
  both_bad: 'both_bad',
};

export interface TurnVerdictRows {
  turnVerdicts: DatasetRow[];
  dpoTurns: DatasetRow[];
}

export function turnVerdictRows(prepared: PreparedConversation, options: Omit<PreferenceOptions, 'minStrength'>): TurnVerdictRows {
  const rows: TurnVerdictRows = { turnVerdicts: [], dpoTurns: [] };
  const { conversation } = prepared;
  if (conversation.turnVerdicts.length === 0) return rows;
  for (const verdict of conversation.turnVerdicts) {
    const index = conversation.turns.findIndex((turn) => turn.turn === verdict.turn);
    if (index < 0) continue;
    const turn = conversation.turns[index]!;
    if (!options.modelAllowed(turn.a.modelId) || !options.modelAllowed(turn.b.modelId)) continue;
    const common = {
      language: conversation.promptLanguages[index] ?? conversation.languages?.[0] ?? null,
      categories: conversation.categories,
      capabilities: conversation.capabilities ?? null,
      prompt_cluster: prepared.promptCluster,
    };
    const winner = verdict.choice === 'a' || verdict.choice === 'b' ? verdict.choice : null;
    rows.turnVerdicts.push({
      conversation_pair_id: prepared.pairId,
      turn: turn.turn,
      msg_rank: index,
      question_id: `${prepared.pairId}-${index}`,
      date: verdict.createdAt.slice(0, 10),
      model_a_name: turn.a.modelId,
      model_b_name: turn.b.modelId,
      verdict: SPOKEN[verdict.choice],
      chosen_model_name: winner ? turn[winner].modelId : null,
      question_content: turn.prompt,
      response_a: turn.a.text,
      response_b: turn.b.text,
      training_use_a: options.trainingUse(turn.a.modelId),
      training_use_b: options.trainingUse(turn.b.modelId),
      source: conversation.source,
      ...common,
    });
    if (winner) rows.dpoTurns.push(dpoTurnRow(prepared, index, winner, options, common));
  }
  return rows;
}

/**
 * A pair for one turn: the chosen side's history as the prompt (`context_from`), as the dpo subset
 * does: each side answered its own history, and the chosen answer is the one that fits the prompt.
 */
function dpoTurnRow(
  prepared: PreparedConversation,
  index: number,
  winner: 'a' | 'b',
  options: Omit<PreferenceOptions, 'minStrength'>,
  common: DatasetRow,
): DatasetRow {
  const loser = winner === 'a' ? 'b' : 'a';
  const turn = prepared.conversation.turns[index]!;
  const messages = winner === 'a' ? prepared.messagesA : prepared.messagesB;
  const head = winner === 'a' ? prepared.headA : prepared.headB;
  const prompt = messages.slice(0, head + 2 * index + 1);
  return {
    prompt,
    chosen: [{ role: 'assistant', content: turn[winner].text } satisfies ChatMessage],
    rejected: [{ role: 'assistant', content: turn[loser].text } satisfies ChatMessage],
    model_chosen: turn[winner].modelId,
    model_rejected: turn[loser].modelId,
    training_use: mostRestrictive([options.trainingUse(turn[winner].modelId), options.trainingUse(turn[loser].modelId)]),
    context_from: sameHistories(prepared, index) ? 'shared' : winner === 'a' ? 'a' : 'b',
    ...common,
    source_id: prepared.pairId,
    turn: turn.turn,
  };
}

/** Whether both sides saw the same messages before this turn's answers (same system prompt, same earlier answers). */
function sameHistories(prepared: PreparedConversation, index: number): boolean {
  if (prepared.headA !== prepared.headB) return false;
  const end = prepared.headA + 2 * index + 1;
  for (let position = 0; position < end; position++) {
    const a = prepared.messagesA[position];
    const b = prepared.messagesB[position];
    if (a === undefined || b === undefined || a.role !== b.role || a.content !== b.content) return false;
  }
  return true;
}
