import { type ComparIaMapping, type MappedRow, mapComparIaRow } from './comparia-rows';
import { ComparIaRowError, describe, optionalInteger, parseJsonText, plainValue, requiredText, timestamp } from './comparia-values';

/**
 * compar:IA's per-response arena data (the `comparia-fr-arena` dataset): one row per turn of a
 * conversation, with both models' answers to it, the visitor's verdict on that turn (`choice`) and
 * the whole conversation of each side. A row maps onto the conversation it belongs to (a duel, as a
 * conversations row would: `comparison_id` is its external id) and a verdict on its turn, whose
 * source id (`response_id`) the optimised set keeps as its rows' provenance.
 */

export const TURN_CHOICES = ['a', 'b', 'both_good', 'both_bad'] as const;
export type TurnChoice = (typeof TURN_CHOICES)[number];

/** A verdict on one turn of an imported conversation. */
export interface ImportedTurnVerdict {
  duelId: string;
  /** 1 for the first turn. */
  turn: number;
  choice: TurnChoice;
  sourceId: string;
  createdAt: string;
}

/** compar:IA's `choice` values, as Agora names them. */
const ARENA_CHOICES: Record<string, TurnChoice> = { a_better: 'a', b_better: 'b', both_good: 'both_good', both_bad: 'both_bad' };

/** The conversation of an arena row, and the verdict on its turn when the visitor gave one. */
export type MappedArenaRow = MappedRow & { verdict?: ImportedTurnVerdict };

export function mapComparIaArenaRow(row: Record<string, unknown>, mapping: ComparIaMapping): MappedArenaRow {
  let metadata = row.metadata;
  if (typeof metadata === 'string') metadata = parseJsonText(metadata, 'metadata');
  const meta = (metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? plainValue(metadata) : {}) as Record<
    string,
    unknown
  >;
  const conversation = mapComparIaRow(
    'conversations',
    {
      conversation_pair_id: requiredText(row, 'comparison_id'),
      model_a_name: row.model_a,
      model_b_name: row.model_b,
      timestamp: row.timestamp,
      conversation_a: row.full_conversation_a,
      conversation_b: row.full_conversation_b,
      mode: meta.mode,
      custom_models_selection: meta.custom_models_selection,
      categories: meta.categories,
      languages: meta.languages,
      short_summary: meta.short_summary,
    },
    mapping,
  );
  if (!('duel' in conversation)) return conversation;
  const choice = row.choice;
  if (choice === null || choice === undefined || choice === '') return conversation;
  const mapped = typeof choice === 'string' ? ARENA_CHOICES[choice] : undefined;
  if (mapped === undefined)
    throw new ComparIaRowError(`choice must be a_better, b_better, both_good, both_bad or null (got ${describe(choice)})`);
  const index = optionalInteger(row, 'turn');
  const turns = conversation.duel.turns.length;
  if (index === null || index < 0 || index >= turns)
    throw new ComparIaRowError(`turn ${index ?? 'null'} is not a turn of the conversation (${turns} turns, counted from 0)`);
  return {
    ...conversation,
    verdict: {
      duelId: conversation.duel.id,
      turn: index + 1,
      choice: mapped,
      sourceId: requiredText(row, 'response_id'),
      createdAt: timestamp(row, 'timestamp'),
    },
  };
}
