import type { StreamEvent } from '@agora/contract';
import type { StoredFrame } from '../../db/repositories/duel.repository';

/** One frame of a turn stream: its SSE id (1, 2, 3… within the turn) and its event, as the store keeps it. */
export type Frame = StoredFrame;

/**
 * The frames of one turn, decoupled from any HTTP connection: the turn runner appends, and any
 * number of readers follow from whichever frame they last saw. A reader that goes away stops
 * nothing; a reader that comes back with `Last-Event-ID` gets exactly the frames it missed.
 */
export class TurnStream {
  private readonly frames: Frame[] = [];
  private ended = false;
  private waiters: (() => void)[] = [];
  private readonly listeners = new Set<() => void>();
  /** Each side's text so far, for transcripts read while the turn still streams. */
  readonly text = { a: '', b: '' };

  get isEnded(): boolean {
    return this.ended;
  }

  get lastId(): number {
    return this.frames.length;
  }

  /** Appends a frame; `turn-end` closes the stream. */
  push(event: StreamEvent): Frame {
    if (this.ended) throw new Error('turn stream already ended');
    const frame = { id: this.frames.length + 1, event };
    this.frames.push(frame);
    if (event.type === 'text-delta') this.text[event.side] += event.text;
    if (event.type === 'turn-end') this.ended = true;
    if (this.waiters.length > 0) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    }
    for (const listener of this.listeners) listener();
    return frame;
  }

  /**
   * Calls `listener` after each new frame (the reader then takes what it has not sent yet from
   * {@link snapshot}) until the returned function is called. The callback-based alternative to
   * {@link follow} for readers that batch their writes themselves.
   */
  onPush(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every frame so far, for storing with the turn. */
  snapshot(): readonly Frame[] {
    return this.frames;
  }

  /**
   * Frames after `afterId`, then new ones as they come, until `turn-end` or until `signal` aborts.
   * Each step yields every frame available at once, so that a slow reader catches up in one write.
   */
  async *follow(afterId: number, signal?: AbortSignal): AsyncGenerator<Frame[]> {
    let next = Math.max(0, afterId);
    let wake: (() => void) | undefined;
    const onAbort = () => wake?.();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        if (next < this.frames.length) {
          const batch = this.frames.slice(next);
          next = this.frames.length;
          yield batch;
          continue;
        }
        if (this.ended || signal?.aborted) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
          this.waiters.push(resolve);
        });
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** A stream rebuilt from stored frames (the turn ended before this process kept it in memory). */
  static fromStored(frames: readonly Frame[]): TurnStream {
    const stream = new TurnStream();
    for (const frame of frames) stream.push(frame.event);
    return stream;
  }
}
