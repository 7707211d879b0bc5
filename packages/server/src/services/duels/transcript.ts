import type { DuelStatus, Reaction, Side, Transcript, VoteRequest } from '@agora/contract';
import type { TurnStatus } from '../../domain/arena/duel-rules';
import { requireDuel } from './duel-access';
import type { DuelContext } from './duel-context';
import { buildReveal } from './reveal';
import { spokenVerdicts } from './turn-verdicts';

/** The duel as its visitor reads it again: turns and answers (a turn still streaming with its text so far), reactions, and the vote with its reveal. */
export async function transcript({ dependencies, turns: liveTurns }: DuelContext, duelId: string, visitorId: string): Promise<Transcript> {
  const { store } = dependencies;
  const duel = await requireDuel(store, duelId, visitorId);
  const [turns, sideRecords, reactions, vote, verdicts] = await Promise.all([
    store.duels.listTurns(duelId),
    store.duels.listSides(duelId),
    store.feedback.listReactions(duelId),
    store.feedback.findVote(duelId),
    store.turnVerdicts.list(duelId),
  ]);
  const answer = (turn: number, status: string, side: Side) => {
    // A failed turn is withheld for both sides: one side's answer alone is never shown.
    if (status === 'failed') return { text: '', reasoning: null };
    const record = sideRecords.find((candidate) => candidate.turn === turn && candidate.side === side);
    const liveText = liveTurns.get(duelId, turn)?.text[side] ?? '';
    return { text: record?.text ?? liveText, reasoning: record?.reasoning || null };
  };
  return {
    id: duel.id,
    status: duel.status as DuelStatus,
    mode: duel.mode as Transcript['mode'],
    turns: turns.map((turn) => ({
      turn: turn.turn,
      prompt: turn.prompt,
      status: turn.status as TurnStatus,
      a: answer(turn.turn, turn.status, 'a'),
      b: answer(turn.turn, turn.status, 'b'),
    })),
    reactions: reactions.map((reaction) => ({
      side: reaction.side,
      turn: reaction.turn,
      value: reaction.value,
      tags: reaction.tags as Reaction['tags'],
      comment: reaction.comment,
    })),
    verdicts: spokenVerdicts(verdicts),
    ...(vote
      ? {
          vote: {
            choice: vote.choice as VoteRequest['choice'],
            tags: { a: vote.tagsA as Reaction['tags'], b: vote.tagsB as Reaction['tags'] },
          },
          reveal: buildReveal(dependencies, duel, sideRecords),
        }
      : {}),
  };
}
