import type { StreamEvent } from '@agora/contract';
import type { TurnOutcome } from './turn-runner';
import { TurnStream } from './turn-stream';

// The last frames of a turn, as its readers see them: a completed turn's end, and what a visitor is
// told when a turn fails (a model could not answer, the store refused the turn, its process stopped).

/** The frames that close a turn once it is stored: its error, if it failed, then `turn-end`. */
export function closingEvents(turn: number, outcome: TurnOutcome): StreamEvent[] {
  const closing: StreamEvent[] = outcome.failure
    ? [
        {
          type: 'turn-error',
          code: outcome.failure.kind,
          message:
            turn === 1
              ? 'One of the two models could not answer, so this turn is not shown or counted. Start a new duel or try again.'
              : 'One of the two models could not answer, so this turn is not shown or counted. You can vote on the earlier turns or send the message again.',
          retryable: outcome.failure.isRetryable,
        },
      ]
    : [];
  closing.push({ type: 'turn-end', turn, status: outcome.status });
  return closing;
}

/** The store refused the turn: its readers are told it failed (nothing can be voted on). */
export function endAsUnstored(stream: TurnStream, turn: number): void {
  if (stream.isEnded) return;
  stream.push({
    type: 'turn-error',
    code: 'store_unavailable',
    message: 'This turn could not be saved. Please start a new duel.',
    retryable: true,
  });
  stream.push({ type: 'turn-end', turn, status: 'failed' });
}

/** A turn left `streaming` by a process that stopped mid-stream: it can only be reported as failed. */
export function interruptedTurn(turn: number): TurnStream {
  const stream = new TurnStream();
  endAsInterrupted(stream, turn);
  return stream;
}

/**
 * Ends a stream (whatever frames it already has) as its turn was: interrupted, its process stopped
 * or taken for dead (its lease lapsed), the turn failed in the store.
 */
export function endAsInterrupted(stream: TurnStream, turn: number): void {
  if (stream.isEnded) return;
  if (stream.lastId === 0) stream.push({ type: 'turn-start', turn });
  stream.push({
    type: 'turn-error',
    code: 'turn_interrupted',
    message: 'This turn was interrupted. Please start a new duel.',
    retryable: true,
  });
  stream.push({ type: 'turn-end', turn, status: 'failed' });
}
