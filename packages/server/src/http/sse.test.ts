import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TurnStream } from '../services/duels/turn-stream';
import { DELTA_FLUSH_INTERVAL_MS, pipeFrames } from './sse';

/** A response that records each write with the (fake) time it was made. */
class RecordingResponse extends EventEmitter {
  readonly writes: { at: number; text: string }[] = [];
  writableEnded = false;
  write(text: string): boolean {
    this.writes.push({ at: performance.now(), text });
    return true;
  }
  end(): void {
    this.writableEnded = true;
  }
}

const delta = (side: 'a' | 'b', text: string) => ({ type: 'text-delta' as const, side, text });
/** The events of each write, as `type:side:text` labels. */
const labels = (response: RecordingResponse) =>
  response.writes.map((write) =>
    [...write.text.matchAll(/event: (\S+)\ndata: (\{.*\})/g)].map(([, type, data]) => {
      const { side, text } = JSON.parse(data!) as { side?: string; text?: string };
      return [type, side, text].filter(Boolean).join(':');
    }),
  );

describe('pipeFrames', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it("writes turn events and each side's first delta at once, and gathers later deltas for the flush interval", async () => {
    const stream = new TurnStream();
    const response = new RecordingResponse();
    let closed = 0;
    pipeFrames(response as unknown as ServerResponse, stream, 0, () => (closed += 1));
    stream.push({ type: 'turn-start', turn: 1 });
    await vi.advanceTimersByTimeAsync(0);
    stream.push(delta('a', 'A1'));
    await vi.advanceTimersByTimeAsync(1);
    stream.push(delta('a', 'A2'));
    await vi.advanceTimersByTimeAsync(2);
    stream.push(delta('b', 'B1')); // B's first delta: at once, with A2 that was waiting
    await vi.advanceTimersByTimeAsync(0);
    stream.push(delta('a', 'A3'));
    stream.push(delta('b', 'B2'));
    await vi.advanceTimersByTimeAsync(DELTA_FLUSH_INTERVAL_MS - 1);
    expect(labels(response)).toEqual([['turn-start'], ['text-delta:a:A1'], ['text-delta:a:A2', 'text-delta:b:B1']]);
    await vi.advanceTimersByTimeAsync(1);
    expect(labels(response).at(-1)).toEqual(['text-delta:a:A3', 'text-delta:b:B2']);
    expect(response.writes.at(-1)!.at - response.writes.at(-2)!.at).toBe(DELTA_FLUSH_INTERVAL_MS);

    stream.push(delta('a', 'A4'));
    await vi.advanceTimersByTimeAsync(1);
    stream.push({ type: 'side-end', side: 'a', output_tokens: 4 }); // not a delta: at once, with A4
    await vi.advanceTimersByTimeAsync(0);
    expect(labels(response).at(-1)).toEqual(['text-delta:a:A4', 'side-end:a']);

    await vi.advanceTimersByTimeAsync(DELTA_FLUSH_INTERVAL_MS * 2); // idle: the next delta goes at once
    stream.push(delta('b', 'B3'));
    await vi.advanceTimersByTimeAsync(0);
    expect(labels(response).at(-1)).toEqual(['text-delta:b:B3']);
    stream.push(delta('b', 'B4'));
    stream.push({ type: 'turn-end', turn: 1, status: 'complete' });
    await vi.advanceTimersByTimeAsync(0);
    expect(labels(response).at(-1)).toEqual(['text-delta:b:B4', 'turn-end']);
    expect(response.writableEnded).toBe(true);
    expect(closed).toBe(1);
  });

  it('sends a reconnecting reader its backlog in one write, and counts the sides it held as started', async () => {
    const stream = new TurnStream();
    for (const event of [{ type: 'turn-start' as const, turn: 1 }, delta('a', 'A1'), delta('b', 'B1'), delta('a', 'A2')])
      stream.push(event);
    const response = new RecordingResponse();
    pipeFrames(response as unknown as ServerResponse, stream, 1, () => {});
    expect(labels(response)).toEqual([['text-delta:a:A1', 'text-delta:b:B1', 'text-delta:a:A2']]);
    stream.push(delta('b', 'B2'));
    await vi.advanceTimersByTimeAsync(DELTA_FLUSH_INTERVAL_MS - 1);
    expect(response.writes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(labels(response).at(-1)).toEqual(['text-delta:b:B2']);
  });

  it('stops writing when the client goes away', async () => {
    const stream = new TurnStream();
    const response = new RecordingResponse();
    let closed = 0;
    pipeFrames(response as unknown as ServerResponse, stream, 0, () => (closed += 1));
    stream.push(delta('a', 'A1'));
    await vi.advanceTimersByTimeAsync(0);
    stream.push(delta('a', 'A2'));
    response.emit('close');
    await vi.advanceTimersByTimeAsync(DELTA_FLUSH_INTERVAL_MS * 2);
    expect(labels(response)).toEqual([['text-delta:a:A1']]);
    expect(closed).toBe(1);
  });
});
