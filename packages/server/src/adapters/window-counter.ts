import { RateLimiterRes } from 'rate-limiter-flexible';

/** What the request limiter asks of a counter: rate-limiter-flexible's own shape (its PostgreSQL limiter has it too). */
export interface Counter {
  readonly points: number;
  /** Counts `points` for the key; rejects with a RateLimiterRes once the key is past its points in this window. */
  consume(key: string, points: number): Promise<RateLimiterRes>;
  /** The key's count in its window, or null when it has none. */
  get(key: string): Promise<RateLimiterRes | null>;
}

/** A key's window: when it started (its first request) and what was counted in it. */
interface KeyWindow {
  start: number;
  consumed: number;
}

/**
 * Counts per key in this process's memory, as rate-limiter-flexible's memory limiter does (a
 * key's window starts at its first request), without its object and timer per key (about 520 bytes
 * of heap: a flood from a million addresses held half a gigabyte for a window, an hour for prompts).
 * Keys live in two generations, each as long as a window: a key starts in the current one, and
 * the older generation, whose windows have all ended, is dropped whole every window, whether or not
 * requests come. A key costs a Map entry, its 22-character hash and two numbers.
 */
export class WindowCounter implements Counter {
  private current = new Map<string, KeyWindow>();
  private previous = new Map<string, KeyWindow>();
  private readonly rotation: NodeJS.Timeout;

  constructor(
    readonly points: number,
    private readonly windowMs: number,
    // Read at each call, not captured: a clock swapped after construction (a frozen test clock) is the one used.
    private readonly now: () => number = () => Date.now(),
  ) {
    // A timer fires no earlier than asked: a key is dropped at least a window after its generation began, so after its own window ended.
    this.rotation = setInterval(() => {
      this.previous = this.current;
      this.current = new Map();
    }, windowMs).unref();
  }

  consume(key: string, points: number): Promise<RateLimiterRes> {
    const window = this.open(key) ?? this.started(key);
    window.consumed += points;
    const answer = this.answer(window, window.consumed === points);
    // rate-limiter-flexible's contract, which the request limiter reads: a refusal rejects with the counter's state.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    return window.consumed > this.points ? Promise.reject(answer) : Promise.resolve(answer);
  }

  get(key: string): Promise<RateLimiterRes | null> {
    const window = this.open(key);
    return Promise.resolve(window ? this.answer(window, false) : null);
  }

  /** Stops the rotation timer (the counts go with the object). */
  stop(): void {
    clearInterval(this.rotation);
  }

  /** The key's window if it has not ended. */
  private open(key: string): KeyWindow | undefined {
    const window = this.current.get(key) ?? this.previous.get(key);
    return window && this.now() < window.start + this.windowMs ? window : undefined;
  }

  private started(key: string): KeyWindow {
    const window = { start: this.now(), consumed: 0 };
    this.current.set(key, window);
    return window;
  }

  private answer(window: KeyWindow, first: boolean): RateLimiterRes {
    const left = Math.max(1, window.start + this.windowMs - this.now());
    return new RateLimiterRes(Math.max(0, this.points - window.consumed), left, window.consumed, first);
  }
}
