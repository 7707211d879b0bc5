import type { DuelStatus, Side } from '@agora/contract';
import type { TurnRecord, TurnSideRecord } from '../../db/repositories/duel.repository';
import { checkFollowUp } from '../../domain/arena/duel-rules';
import type { ModelMessage } from '../../providers/spec';
import type { Requester } from '../ports/request-limiter';
import { chargeCostlyBudget, costlyModelsLimited } from './costly-models';
import { requireDuel, throwIfConflict } from './duel-access';
import type { DuelContext } from './duel-context';
import { failTurnIfLeaseLapsed, leaseFrom } from './turn-lease';
import { summaryOf } from './turn-records';

/** A follow-up prompt, sent to both sides with each side's own history. */
export async function followUp(
  { dependencies, turns, voteContexts }: DuelContext,
  duelId: string,
  prompt: string,
  requester: Requester,
): Promise<{ turn: number }> {
  const { store, runtime, settings } = dependencies;
  let duel = await requireDuel(store, duelId, requester.visitorId);
  // A turn whose instance stopped is ended first: the duel is then as after any failed turn.
  if (await failTurnIfLeaseLapsed(dependencies, duel)) duel = await requireDuel(store, duelId, requester.visitorId);
  throwIfConflict(checkFollowUp({ status: duel.status as DuelStatus, turnCount: duel.turnCount }, settings.maxTurns));
  const [pastTurns, sideRecords] = await Promise.all([store.duels.listTurns(duelId), store.duels.listSides(duelId)]);
  const history = (side: Side) => historyOf(pastTurns, sideRecords, side);
  if (duel.chargesCostlyBudget) {
    // Each side is sent the whole conversation again: that is what a costly model is paid for. Charged
    // when the duel's first prompt was, whoever was drawn, and the longer side counts: the visitor
    // sees both, so neither the charge nor a refusal tells which side (if any) is costly.
    const sentChars = (side: Side) => history(side).reduce((sum, message) => sum + message.content.length, prompt.length);
    const charge = await chargeCostlyBudget(dependencies, Math.max(sentChars('a'), sentChars('b')), requester);
    if (!charge.allowed) throw costlyModelsLimited(charge.resetMs);
  }
  const turn = duel.turnCount + 1;
  voteContexts.forget(duelId);
  const startedAt = runtime.now();
  const started = await store.duels.startFollowUpTurn(
    duelId,
    { turn, prompt, status: 'streaming', errorCode: null, startedAt: startedAt.toISOString(), endedAt: null },
    leaseFrom(startedAt),
  );
  if (!started) throwIfConflict('turn_in_progress');
  turns.start(
    duel,
    {
      turn,
      prompt,
      sides: {
        a: { modelId: duel.modelA, history: history('a'), replacementPool: [] },
        b: { modelId: duel.modelB, history: history('b'), replacementPool: [] },
      },
    },
    sideRecords.map(summaryOf),
  );
  return { turn };
}

/** One side's conversation so far. A failed turn was never shown: the models go on from the turns both completed. */
function historyOf(pastTurns: readonly TurnRecord[], sideRecords: readonly TurnSideRecord[], side: Side): ModelMessage[] {
  return pastTurns.flatMap((past) => {
    if (past.status !== 'complete') return [];
    const answer = sideRecords.find((record) => record.turn === past.turn && record.side === side);
    return [
      { role: 'user' as const, content: past.prompt },
      { role: 'assistant' as const, content: answer?.text ?? '' },
    ];
  });
}
