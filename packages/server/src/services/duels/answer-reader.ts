import type { Side } from '@agora/contract';
import { type ModelStreamPart, type PushedParts, hasPushedParts } from '../../providers/spec';
import type { TurnStream } from './turn-stream';

/** What reading an answer fills in of a side's outcome (turn-runner.ts's `SideOutcome`). */
export interface AnswerSoFar {
  readonly side: Side;
  text: string;
  reasoning: string;
  ttftMs: number | null;
  finishReason: string | null;
  metadata: { responseId?: string; servedModel?: string; requestId?: string };
}

/**
 * Reads one call's parts into the side's outcome and the turn's stream until the model finishes;
 * returns the output tokens the provider counted, if it did. Throws the abort's reason once aborted.
 * Parts that can be listened to (Node's HTTP client) are taken as they are mapped, in the body's
 * 'data' handler: no promise and no resumption of this reader per token, and the first token goes
 * to the turn's stream (and to its viewers) in the same callback that read it. Any other client's
 * parts are iterated.
 */
export function readAnswer(
  parts: AsyncIterable<ModelStreamPart>,
  outcome: AnswerSoFar,
  stream: TurnStream,
  signal: AbortSignal,
  onFirstToken: () => void,
): Promise<number | undefined> {
  const taker = new PartTaker(outcome, stream, signal, onFirstToken);
  return hasPushedParts(parts) ? listenToAnswer(parts, taker, signal) : iterateAnswer(parts, taker, signal);
}

/** What each part does to the side's outcome and the turn's stream; the same for both ways of reading. */
class PartTaker {
  usageTokens: number | undefined;

  constructor(
    private readonly outcome: AnswerSoFar,
    private readonly stream: TurnStream,
    private readonly signal: AbortSignal,
    private readonly onFirstToken: () => void,
  ) {}

  /** Throws the part's error (or the abort's reason, if the call was aborted meanwhile). */
  take(part: ModelStreamPart): void {
    const { outcome } = this;
    if (part.type === 'error') throw this.signal.aborted ? this.signal.reason : part.error;
    if (part.type === 'response-metadata') outcome.metadata = { ...outcome.metadata, responseId: part.id, servedModel: part.modelId };
    if (part.type === 'finish') {
      outcome.finishReason = part.finishReason;
      this.usageTokens = part.usage.outputTokens;
    }
    if ((part.type === 'text-delta' || part.type === 'reasoning-delta') && part.delta.length > 0) {
      if (outcome.ttftMs === null) this.onFirstToken();
      const isText = part.type === 'text-delta';
      if (isText) outcome.text += part.delta;
      else outcome.reasoning += part.delta;
      this.stream.push({ type: isText ? 'text-delta' : 'reasoning-delta', side: outcome.side, text: part.delta });
    }
  }
}

/** The parts as they are mapped; aborting ends the answer at once and cancels the call. */
function listenToAnswer(parts: PushedParts, taker: PartTaker, signal: AbortSignal): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    let ended = false;
    // Assigned once `listen` returns: parts (and the end) may come before, from what was already read.
    let stop: (() => void) | undefined = undefined;
    // The turn's abort reasons and the parts' errors are Errors, as the iterating reader throws them.
    const end = (failure?: { error: Error }) => {
      if (ended) return;
      ended = true;
      signal.removeEventListener('abort', onAbort);
      stop?.();
      if (failure) reject(failure.error);
      else resolve(taker.usageTokens);
    };
    const onAbort = () => end({ error: signal.reason as Error });
    signal.addEventListener('abort', onAbort, { once: true });
    stop = parts.listen(
      (part) => {
        if (ended) return;
        try {
          taker.take(part);
        } catch (error) {
          end({ error: error as Error });
        }
      },
      (abortReason) =>
        end(abortReason === undefined && !signal.aborted ? undefined : { error: (signal.aborted ? signal.reason : abortReason) as Error }),
    );
    // Ended before `listen` returned (an abort, or a body already read to its end): the call is released now.
    if (ended || signal.aborted) {
      onAbort();
      stop();
    }
  });
}

/** The parts one `await` at a time; aborting ends a pending read at once, even if an upstream ignored the abort of its request. */
async function iterateAnswer(parts: AsyncIterable<ModelStreamPart>, taker: PartTaker, signal: AbortSignal): Promise<number | undefined> {
  const reader = parts[Symbol.asyncIterator]();
  // Read from a local flag after each part: the signal's getter checks its receiver on every call.
  let aborted = signal.aborted;
  const stopReading = () => {
    aborted = true;
    void reader.return?.().catch(() => {});
  };
  signal.addEventListener('abort', stopReading, { once: true });
  try {
    for (;;) {
      const next = await reader.next();
      if (aborted) throw signal.reason;
      if (next.done) return taker.usageTokens;
      taker.take(next.value);
    }
  } finally {
    signal.removeEventListener('abort', stopReading);
    reader.return?.().catch(() => {});
  }
}
