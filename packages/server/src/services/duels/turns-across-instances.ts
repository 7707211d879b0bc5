import type { StreamEvent } from '@agora/contract';
import type { DuelServiceDependencies } from './duel-dependencies';
import { interruptedTurn } from './turn-endings';
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
 * ended without frames (its instance died) ends as interrupted.
 */
export function followElsewhere({ store, logError }: FrameSharing, duelId: string, turn: number): TurnStream {
  const stream = new TurnStream();
  const pushAfter = (frames: readonly { id: number; event: StreamEvent }[]) => {
    for (const frame of frames) if (frame.id > stream.lastId && !stream.isEnded) stream.push(frame.event);
  };
  // The turn ended without its frames (its instance died), or following it failed: it ends as interrupted here.
  const endInterrupted = () => {
    if (stream.isEnded) return;
    if (stream.lastId === 0) stream.push({ type: 'turn-start', turn });
    for (const frame of interruptedTurn(turn).snapshot().slice(1)) stream.push(frame.event);
  };
  const follow = async () => {
    for (;;) {
      const status = await store.duels.findTurnStatus(duelId, turn);
      if (status !== 'streaming') {
        const final = await store.duels.findTurnFrames(duelId, turn);
        if (final) pushAfter(final);
        endInterrupted();
        return;
      }
      pushAfter(await store.duels.liveFramesAfter(duelId, turn, stream.lastId));
      if (stream.isEnded) return;
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
    }
  };
  follow().catch((error: unknown) => {
    logError(`following turn ${turn} of duel ${duelId} from the store failed`, error);
    endInterrupted();
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
