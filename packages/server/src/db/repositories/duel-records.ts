import type { StreamEvent } from '@agora/contract';
import type { Selectable } from 'kysely';
import type { DuelsTable, TurnSidesTable, TurnsTable } from '../database';

// What the store keeps of a duel, its turns and answers, and how each maps to and from its row.

/** One frame of a turn's stream as stored with the finished turn: its SSE id within the turn and its event. */
export interface StoredFrame {
  id: number;
  event: StreamEvent;
}

export interface DuelRecord {
  id: string;
  visitorHash: string;
  mode: string;
  modelA: string;
  modelB: string;
  chosenModels: string[] | null;
  locale: string | null;
  status: string;
  turnCount: number;
  createdAt: string;
  /** `arena` (the default when creating), or the dataset an imported duel comes from. */
  source?: string;
  /** The operator's label for the campaign it belongs to (AGORA_COHORT_HOSTS); private cohorts stay out of exports. */
  cohort?: string | null;
  /**
   * Its prompts are charged to its visitor's budget for costly models (services/duels/costly-models.ts):
   * decided when it starts from the request and the budget, never from the models drawn. Absent: not charged.
   */
  chargesCostlyBudget?: boolean;
}

export interface TurnRecord {
  turn: number;
  prompt: string;
  status: string;
  errorCode: string | null;
  startedAt: string;
  endedAt: string | null;
}

export interface TurnSideRecord {
  turn: number;
  side: 'a' | 'b';
  modelId: string;
  text: string;
  reasoning: string | null;
  outputTokens: number | null;
  outputTokensSource: 'provider' | 'local' | null;
  status: 'complete' | 'failed' | 'cancelled';
  errorKind: string | null;
  finishReason: string | null;
  ttftMs: number | null;
  durationMs: number | null;
  identityLeak: boolean;
  /** What the provider said it served (its stream's `model`), and whether that is another model than the catalogue's. */
  servedModel: string | null;
  servedModelMismatch: boolean;
  /** Style counts of the answer (tokens counted locally, headers, list items, bold), null when it did not complete. */
  style: { len: number; headers: number; lists: number; bold: number } | null;
}

/** A side's answer without its text: what votes, reactions and reveals need. */
export type TurnSideSummary = Omit<TurnSideRecord, 'text' | 'reasoning' | 'servedModel'>;

export interface UpstreamErrorRecord {
  id: string;
  turn: number;
  side: 'a' | 'b';
  modelId: string;
  kind: string;
  statusCode: number | null;
  message: string;
  /** True when the failing model was swapped for another of its pool and the turn went on. */
  replaced: boolean;
  createdAt: string;
}

/** Everything stored when a turn ends, written in one transaction. */
export interface FinishedTurn {
  duelId: string;
  turn: number;
  status: 'complete' | 'failed';
  errorCode: string | null;
  framesJson: string;
  endedAt: string;
  sides: TurnSideRecord[];
  errors: UpstreamErrorRecord[];
  duelStatus: 'ready' | 'failed';
  /** Set when a first-turn model was replaced: the duel's final pairing. */
  models?: { a: string; b: string };
}

export const summaryColumns = [
  'turn',
  'side',
  'model_id',
  'output_tokens',
  'output_tokens_source',
  'status',
  'error_kind',
  'finish_reason',
  'ttft_ms',
  'duration_ms',
  'identity_leak',
  'served_model_mismatch',
  'style',
] as const;

export function toSideSummary(row: Pick<Selectable<TurnSidesTable>, (typeof summaryColumns)[number]>): TurnSideSummary {
  return {
    turn: row.turn,
    side: row.side as 'a' | 'b',
    modelId: row.model_id,
    outputTokens: row.output_tokens,
    outputTokensSource: row.output_tokens_source as TurnSideRecord['outputTokensSource'],
    status: row.status as TurnSideRecord['status'],
    errorKind: row.error_kind,
    finishReason: row.finish_reason,
    ttftMs: row.ttft_ms,
    durationMs: row.duration_ms,
    identityLeak: row.identity_leak === 1,
    servedModelMismatch: row.served_model_mismatch === 1,
    style: row.style ? (JSON.parse(row.style) as TurnSideRecord['style']) : null,
  };
}

export function toSideRecord(row: Selectable<TurnSidesTable>): TurnSideRecord {
  return { ...toSideSummary(row), text: row.text, reasoning: row.reasoning, servedModel: row.served_model };
}

export function toTurnRecord(
  row: Pick<Selectable<TurnsTable>, 'turn' | 'prompt' | 'status' | 'error_code' | 'started_at' | 'ended_at'>,
): TurnRecord {
  return {
    turn: row.turn,
    prompt: row.prompt,
    status: row.status,
    errorCode: row.error_code,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

export const duelColumns = [
  'id',
  'visitor_hash',
  'mode',
  'model_a',
  'model_b',
  'chosen_models',
  'locale',
  'status',
  'turn_count',
  'created_at',
  'source',
  'cohort',
  'charges_costly_budget',
] as const;

export function toDuelRecord(row: Selectable<Pick<DuelsTable, (typeof duelColumns)[number]>>): DuelRecord {
  return {
    id: row.id,
    visitorHash: row.visitor_hash,
    mode: row.mode,
    modelA: row.model_a,
    modelB: row.model_b,
    chosenModels: row.chosen_models ? (JSON.parse(row.chosen_models) as string[]) : null,
    locale: row.locale,
    status: row.status,
    turnCount: row.turn_count,
    createdAt: row.created_at,
    source: row.source,
    cohort: row.cohort,
    chargesCostlyBudget: row.charges_costly_budget === 1,
  };
}

/** A finished turn's side as a row of `turn_sides`. */
export function sideRow(duelId: string, side: TurnSideRecord) {
  return {
    duel_id: duelId,
    turn: side.turn,
    side: side.side,
    model_id: side.modelId,
    text: side.text,
    reasoning: side.reasoning,
    output_tokens: side.outputTokens,
    output_tokens_source: side.outputTokensSource,
    status: side.status,
    error_kind: side.errorKind,
    finish_reason: side.finishReason,
    ttft_ms: side.ttftMs,
    duration_ms: side.durationMs,
    identity_leak: side.identityLeak ? 1 : 0,
    served_model: side.servedModel,
    served_model_mismatch: side.servedModelMismatch ? 1 : 0,
    style: side.style ? JSON.stringify(side.style) : null,
  };
}

/** An upstream failure as a row of `upstream_errors`. */
export function upstreamErrorRow(duelId: string, error: UpstreamErrorRecord) {
  return {
    id: error.id,
    duel_id: duelId,
    turn: error.turn,
    side: error.side,
    model_id: error.modelId,
    kind: error.kind,
    status_code: error.statusCode,
    message: error.message,
    replaced: error.replaced ? 1 : 0,
    created_at: error.createdAt,
  };
}
