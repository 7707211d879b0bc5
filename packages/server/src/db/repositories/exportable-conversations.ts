import type { Selectable } from 'kysely';
import type { ReactionsTable, TurnSidesTable, TurnVerdictsTable, TurnsTable, VotesTable } from '../database';
import type { ExportableAnswer, ExportableConversation, ExportableTurnVerdict, ExportableVote } from '../../domain/datasets/exportable';

// How the rows of a batch of exportable conversations become ExportableConversation objects (no SQL).

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

function exportableAnswer(side: TurnSideRow): ExportableAnswer {
  // Only imported answers have source metadata.
  const metadata = json<{ metadata?: unknown }>(side.source_meta)?.metadata;
  return {
    modelId: side.model_id,
    text: side.text,
    reasoning: side.reasoning,
    outputTokens: side.output_tokens,
    durationMs: side.duration_ms,
    sourceMetadata:
      typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? (metadata as Record<string, unknown>) : null,
  };
}

/** A duel that passed the export predicate, with its annotation's columns. */
export interface DuelRow {
  id: string;
  source: string;
  external_id: string | null;
  visitor_hash: string;
  mode: string;
  model_a: string;
  model_b: string;
  chosen_models: string | null;
  created_at: string;
  source_meta: string | null;
  turns_annotated: number;
  languages: string | null;
  message_languages: string | null;
  categories: string | null;
  capabilities: string | null;
  prompt_cluster: string | null;
  keywords: string | null;
  short_summary: string | null;
  model_status: string;
  pii_rule_kinds: string | null;
}

function toConversation(duel: DuelRow): ExportableConversation {
  const messageLanguages = json<{ prompt?: string }[]>(duel.message_languages) ?? [];
  return {
    duelId: duel.id,
    source: duel.source,
    externalId: duel.external_id,
    visitorHash: duel.visitor_hash,
    mode: duel.mode,
    modelA: duel.model_a,
    modelB: duel.model_b,
    chosenModels: json(duel.chosen_models),
    createdAt: duel.created_at,
    sourceMeta: json(duel.source_meta),
    languages: json(duel.languages),
    promptLanguages: messageLanguages.map((entry) => entry.prompt ?? null),
    categories: json(duel.categories),
    capabilities: json(duel.capabilities),
    promptCluster: duel.prompt_cluster,
    keywords: json(duel.keywords),
    shortSummary: duel.short_summary,
    modelStatus: duel.model_status,
    // The rules layer always records what it found, if only `[]`; a trusted import records nothing.
    screenedBy: duel.source !== 'arena' && duel.pii_rule_kinds === null ? 'source' : 'agora',
    turns: [],
    vote: null,
    reactions: [],
    turnVerdicts: [],
  };
}

/** A complete turn's side, joined with its turn's prompt. */
export type TurnSideRow = Pick<Selectable<TurnsTable>, 'duel_id' | 'turn' | 'prompt'> &
  Pick<Selectable<TurnSidesTable>, 'side' | 'model_id' | 'text' | 'reasoning' | 'output_tokens' | 'duration_ms' | 'source_meta'>;

/** The rows of one batch of conversations besides the duels: sides in no order, the rest in (duel, turn, side) order. */
export interface ConversationBatchRows {
  sides: TurnSideRow[];
  votes: Pick<
    Selectable<VotesTable>,
    'duel_id' | 'choice' | 'tags_a' | 'tags_b' | 'comment_a' | 'comment_b' | 'created_at' | 'source_meta'
  >[];
  reactions: Pick<
    Selectable<ReactionsTable>,
    'duel_id' | 'turn' | 'side' | 'model_id' | 'value' | 'tags' | 'comment' | 'created_at' | 'source_meta'
  >[];
  verdicts: Pick<Selectable<TurnVerdictsTable>, 'duel_id' | 'turn' | 'choice' | 'source_id' | 'created_at'>[];
}

/** The conversations of a batch, each with its screened turns, its vote, its reactions and its turn verdicts. */
export function assembleConversations(duels: readonly DuelRow[], rows: ConversationBatchRows): ExportableConversation[] {
  const conversations = new Map<string, ExportableConversation>();
  const screenedTurns = new Map<string, number>();
  for (const duel of duels) {
    conversations.set(duel.id, toConversation(duel));
    screenedTurns.set(duel.id, duel.turns_annotated);
  }
  pairTurns(conversations, rows.sides, screenedTurns);
  for (const vote of rows.votes) {
    conversations.get(vote.duel_id)!.vote = {
      choice: vote.choice as ExportableVote['choice'],
      tagsA: JSON.parse(vote.tags_a) as string[],
      tagsB: JSON.parse(vote.tags_b) as string[],
      commentA: vote.comment_a,
      commentB: vote.comment_b,
      createdAt: vote.created_at,
      sourceMeta: json(vote.source_meta),
    };
  }
  for (const reaction of rows.reactions) {
    conversations.get(reaction.duel_id)!.reactions.push({
      turn: reaction.turn,
      side: reaction.side as 'a' | 'b',
      modelId: reaction.model_id,
      liked: reaction.value === 'like',
      tags: JSON.parse(reaction.tags) as string[],
      comment: reaction.comment,
      createdAt: reaction.created_at,
      sourceMeta: json(reaction.source_meta),
    });
  }
  for (const verdict of rows.verdicts) {
    conversations.get(verdict.duel_id)!.turnVerdicts.push({
      turn: verdict.turn,
      choice: verdict.choice as ExportableTurnVerdict['choice'],
      sourceId: verdict.source_id,
      createdAt: verdict.created_at,
    });
  }
  // A turn the screening did not cover yet (the conversation grew since) is not published.
  return [...conversations.values()].filter((conversation) => conversation.turns.length > 0);
}

/** Pairs the two sides of each screened turn into the conversation's turns, in turn order. */
function pairTurns(
  conversations: Map<string, ExportableConversation>,
  sides: readonly TurnSideRow[],
  screenedTurns: Map<string, number>,
): void {
  const halves = new Map<string, TurnSideRow>();
  for (const side of sides) {
    if (side.turn > screenedTurns.get(side.duel_id)!) continue;
    const key = `${side.duel_id}\0${side.turn}`;
    const other = halves.get(key);
    if (other === undefined) {
      halves.set(key, side);
      continue;
    }
    halves.delete(key);
    const [a, b] = side.side === 'a' ? [side, other] : [other, side];
    conversations.get(a.duel_id)!.turns.push({
      turn: a.turn,
      prompt: a.prompt,
      a: exportableAnswer(a),
      b: exportableAnswer(b),
    });
  }
  for (const conversation of conversations.values()) if (conversation.turns.length > 1) conversation.turns.sort((x, y) => x.turn - y.turn);
}
