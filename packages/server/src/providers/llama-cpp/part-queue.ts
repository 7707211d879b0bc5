import type { ModelStreamPart } from '../spec';

/**
 * Parts pushed by a producer (a local generation) and read as the port's async iterable. A reader
 * that stops early (`return()`, as `break` does) cancels the producer and ends a pending read at once.
 */
export class PartQueue implements AsyncIterable<ModelStreamPart> {
  private readonly buffered: ModelStreamPart[] = [];
  private waiting: ((result: IteratorResult<ModelStreamPart>) => void) | undefined;
  private ended = false;

  constructor(private readonly cancel: () => void) {}

  push(part: ModelStreamPart): void {
    if (this.ended) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: part, done: false });
    } else this.buffered.push(part);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.waiting && this.buffered.length === 0) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<ModelStreamPart> {
    return {
      next: () => {
        const part = this.buffered.shift();
        if (part !== undefined) return Promise.resolve({ value: part, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiting = resolve;
        });
      },
      return: () => {
        this.cancel();
        this.buffered.length = 0;
        this.end();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
