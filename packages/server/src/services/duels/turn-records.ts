import type { Side, StreamEvent } from '@agora/contract';
import type { DuelRecord, FinishedTurn, TurnSideRecord, TurnSideSummary } from '../../db/repositories/duel.repository';
import { duelStatusAfterTurn } from '../../domain/arena/duel-rules';
import type { VoteContext } from '../recent-vote-contexts';
import type { SideOutcome, TurnOutcome, TurnPlan } from './turn-runner';
import type { Frame } from './turn-stream';

// What the store keeps of a turn that ended, built from the turn runner's outcome: its frames, each
// side's answer, the upstream failures, and the duel's status after it.

const sides: readonly Side[] = ['a', 'b'];

/** What a failed turn's replay leaves out: both sides' answers. */
const WITHHELD_FROM_FAILED_TURNS = new Set<StreamEvent['type']>(['text-delta', 'reasoning-delta', 'side-end']);

/** The turn's frames as stored, with the `closing` ones still to be pushed. */
export function framesToStore(frames: readonly Frame[], closing: readonly StreamEvent[], status: TurnOutcome['status']): Frame[] {
  const lastId = frames.length;
  return [...frames, ...closing.map((event, index) => ({ id: lastId + index + 1, event }))].filter(
    // A failed turn is withheld for both sides: a replay gives its start, its error and its end, no answer.
    ({ event }) => status === 'complete' || !WITHHELD_FROM_FAILED_TURNS.has(event.type),
  );
}

/** The turn as stored: `frames` from {@link framesToStore}, `newId` for each upstream failure's record. */
export function finishedTurn(
  duelId: string,
  plan: TurnPlan,
  outcome: TurnOutcome,
  stored: { frames: readonly Frame[]; endedAt: string; newId: () => string },
): FinishedTurn {
  return {
    duelId,
    turn: plan.turn,
    status: outcome.status,
    errorCode: outcome.failure?.kind ?? null,
    framesJson: JSON.stringify(stored.frames),
    endedAt: stored.endedAt,
    sides: sides.map((side) => toSideRecord(plan.turn, outcome.sides[side])),
    errors: sides.flatMap((side) =>
      outcome.sides[side].failures.map((failure) => ({
        id: stored.newId(),
        turn: plan.turn,
        side,
        modelId: failure.modelId,
        kind: failure.error.kind,
        statusCode: failure.error.statusCode ?? null,
        message: failure.error.message,
        replaced: failure.replaced,
        createdAt: failure.at.toISOString(),
      })),
    ),
    duelStatus: duelStatusAfterTurn(plan.turn, outcome.status),
    models: plan.turn === 1 ? { a: outcome.sides.a.modelId, b: outcome.sides.b.modelId } : undefined,
  };
}

/** The duel's vote context once `finished` is stored: `earlierSides` are the answers of its earlier turns. */
export function voteContextAfter(duel: DuelRecord, earlierSides: readonly TurnSideSummary[], finished: FinishedTurn): VoteContext {
  return {
    duel: {
      ...duel,
      status: finished.duelStatus,
      turnCount: finished.turn,
      ...(finished.models ? { modelA: finished.models.a, modelB: finished.models.b } : {}),
    },
    sides: [...earlierSides, ...finished.sides.map(summaryOf)],
  };
}

/** A stored answer without its texts, as a vote needs it. */
export function summaryOf({ text: _text, reasoning: _reasoning, ...summary }: TurnSideRecord): TurnSideSummary {
  return summary;
}

function toSideRecord(turn: number, outcome: SideOutcome): TurnSideRecord {
  return {
    turn,
    side: outcome.side,
    modelId: outcome.modelId,
    text: outcome.text,
    reasoning: outcome.reasoning || null,
    outputTokens: outcome.outputTokens,
    outputTokensSource: outcome.outputTokensSource,
    status: outcome.status,
    errorKind: outcome.status === 'failed' ? (outcome.failures.at(-1)?.error.kind ?? null) : null,
    finishReason: outcome.finishReason,
    ttftMs: outcome.ttftMs,
    durationMs: outcome.durationMs,
    identityLeak: outcome.identityLeak,
    servedModel: outcome.metadata.servedModel ?? null,
    servedModelMismatch: outcome.servedModelMismatch,
    style: outcome.style,
  };
}
