import type { StreamEvent } from '@agora/contract';
import type { DuelServiceDependencies } from './duel-dependencies';
import { endAsInterrupted } from './turn-endings';
import { leaseLapsed } from './turn-lease';
import { TurnStream } from './turn-stream';

// With several instances (docs/decisions/0005-several-instances.md), a turn runs on one of them and
// any of them may stream it: the running instance appends its live frames to the store, the others
// poll them from there.

type FrameSharing = Pick<DuelServiceDependencies, 'store' | 'logError'>;

/** How often live frames are shared with, and read by, the other instances: the latency a follower adds. */
const FOLLOW_POLL_MS = 100;

/**
 * A turn run by another instance, followed through the store: its live frames as they are
 * appended (polled), then, once the turn is stored, the rest of its final frames; a turn that
 * ended without frames (its instance died) ends as interrupted. When the running instance's lease
 * on the turn lapses (turn-lease.ts), the follower ends the turn as interrupted in the store itself
 * (whichever instance does it first), then tells its readers.
 */
export function followElsewhere(
  { store, runtime, logError }: FrameSharing & Pick<DuelServiceDependencies, 'runtime'>,
  duelId: string,
  turn: number,
): TurnStream {
  const stream = new TurnStream();
  const pushAfter = (frames: readonly { id: number; event: StreamEvent }[]) => {
    for (const frame of frames) if (frame.id > stream.lastId && !stream.isEnded) stream.push(frame.event);
  };
  const follow = async () => {
    for (;;) {
      const lease = await store.duels.findTurnLease(duelId, turn);
      if (lease?.status === 'streaming' && leaseLapsed(lease.leaseUntil, runtime.now())) {
        await store.duels.failLapsedTurn(duelId, turn, runtime.now().toISOString());
        continue;
      }
      if (lease?.status !== 'streaming') {
        const final = await store.duels.findTurnFrames(duelId, turn);
        if (final) pushAfter(final);
        endAsInterrupted(stream, turn);
        return;
      }
      pushAfter(await store.duels.liveFramesAfter(duelId, turn, stream.lastId));
      if (stream.isEnded) return;
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
    }
  };
  follow().catch((error: unknown) => {
    logError(`following turn ${turn} of duel ${duelId} from the store failed`, error);
    // Following it failed: it ends as interrupted here.
    endAsInterrupted(stream, turn);
  });
  return stream;
}

/**
 * Appends the frames of a turn this instance runs to the store every {@link FOLLOW_POLL_MS}, for
 * the other instances; `stop` flushes the rest and then drops them (call it once the turn is stored).
 */
export function publishFrames(
  { store, logError }: FrameSharing,
  duelId: string,
  turn: number,
  stream: TurnStream,
): { stop: () => Promise<void> } {
  let sent = 0;
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    const frames = stream.snapshot().slice(sent);
    if (frames.length > 0) {
      sent += frames.length;
      writing = writing
        .then(() => store.duels.appendLiveFrames(duelId, turn, frames))
        .catch((error: unknown) => logError(`sharing the frames of turn ${turn} of duel ${duelId} failed`, error));
    }
    return writing;
  };
  const timer = setInterval(() => void flush(), FOLLOW_POLL_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await flush();
      await store.duels.dropLiveFrames(duelId, turn).catch((error: unknown) => logError(`dropping live frames of duel ${duelId}`, error));
    },
  };
}
