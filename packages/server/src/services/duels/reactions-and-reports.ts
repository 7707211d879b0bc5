import type { DuelStatus, ParsedReportRequest, Reaction, ReactionRequest } from '@agora/contract';
import { checkReaction, type TurnStatus } from '../../domain/arena/duel-rules';
import { AppError } from '../app-error';
import { requireDuel, throwIfConflict } from './duel-access';
import type { DuelServiceDependencies } from './duel-dependencies';

type FeedbackDependencies = Pick<DuelServiceDependencies, 'store' | 'runtime'>;

/** A visitor's reaction to one answer (a value, tags, a comment); a null value takes it back. */
export async function react(
  { store, runtime }: FeedbackDependencies,
  duelId: string,
  request: ReactionRequest,
  visitorId: string,
): Promise<Reaction> {
  const duel = await requireDuel(store, duelId, visitorId);
  const turnStatus = await store.duels.findTurnStatus(duelId, request.turn);
  if (turnStatus === undefined) throw new AppError('turn_not_found', `this duel has no turn ${request.turn}`);
  const conflict = checkReaction({ status: duel.status as DuelStatus, turnCount: duel.turnCount }, turnStatus as TurnStatus);
  // A failed follow-up in a duel that goes on: say so, not that the whole duel is over.
  if (conflict === 'duel_failed' && duel.status !== 'failed')
    throw new AppError('duel_failed', 'this turn failed: its answers are withheld, and nothing of it can be reacted to');
  throwIfConflict(conflict);
  const answer = (await store.duels.listSideSummaries(duelId)).find(
    (record) => record.turn === request.turn && record.side === request.side,
  )!;
  const reaction: Reaction = {
    side: request.side,
    turn: request.turn,
    value: request.value,
    tags: request.value ? (request.tags ?? []) : [],
    comment: request.value ? (request.comment ?? null) : null,
  };
  if (request.value === null) await store.feedback.deleteReaction(duelId, request.turn, request.side);
  else {
    await store.feedback.upsertReaction({
      duelId,
      turn: request.turn,
      side: request.side,
      modelId: answer.modelId,
      value: request.value,
      tags: reaction.tags,
      comment: reaction.comment,
      at: runtime.now().toISOString(),
    });
  }
  return reaction;
}

/**
 * A report by the duel's visitor, of the whole duel or of one answer (a turn it has, and a side);
 * each is reported once: a second report of the same duel or answer changes nothing.
 */
export async function report(
  { store, runtime }: FeedbackDependencies,
  duelId: string,
  request: ParsedReportRequest,
  visitorId: string,
): Promise<void> {
  await requireDuel(store, duelId, visitorId);
  if (request.turn !== undefined && (await store.duels.findTurnStatus(duelId, request.turn)) === undefined)
    throw new AppError('turn_not_found', `this duel has no turn ${request.turn}`);
  await store.feedback.insertReportOnce({
    id: runtime.newId(),
    duelId,
    category: request.category,
    reason: request.reason,
    turn: request.turn ?? null,
    side: request.side ?? null,
    createdAt: runtime.now().toISOString(),
  });
}
