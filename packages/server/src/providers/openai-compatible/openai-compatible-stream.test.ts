import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ProviderCallError, type ModelStreamPart, hasPushedParts } from '../spec';
import { ChatCompletionStreamMapper, chatCompletionParts } from './openai-compatible-stream';
import { SseDataParser } from './parse-sse-events';

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'c', choices: [{ index: 0, delta, finish_reason: null }], ...extra });

function run(payloads: string[], ended = true): ModelStreamPart[] {
  const mapper = new ChatCompletionStreamMapper();
  const parts: ModelStreamPart[] = [];
  for (const payload of payloads) mapper.accept(payload, parts);
  if (ended) mapper.end(parts);
  return parts;
}

describe('SseDataParser', () => {
  it('joins data lines, ends events on blank lines, ignores comments and other fields, across chunk boundaries', () => {
    const parser = new SseDataParser();
    expect(parser.push(': keep-alive\n\nevent: x\ndata: {"a":')).toEqual([]);
    expect(parser.push('1}\nid: 4\n\r\ndata:one\ndata: two\n\ndata: [DONE]\n')).toEqual(['{"a":1}', 'one\ntwo']);
    expect(parser.push('\n')).toEqual(['[DONE]']);
  });
});

describe('ChatCompletionStreamMapper', () => {
  it('maps text, reasoning (either field name), finish reason and usage', () => {
    const parts = run([
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'Je ' }),
      chunk({ reasoning: 'pense.' }),
      chunk({ content: 'Bon' }),
      chunk({ content: 'jour' }),
      JSON.stringify({ choices: [{ delta: {}, finish_reason: 'length' }] }),
      JSON.stringify({
        choices: [],
        usage: { prompt_tokens: 3, completion_tokens: 5, completion_tokens_details: { reasoning_tokens: 2 } },
      }),
      '[DONE]',
    ]);
    expect(parts).toEqual([
      { type: 'response-metadata', id: 'c', modelId: undefined },
      { type: 'reasoning-start', id: 'reasoning-0' },
      { type: 'reasoning-delta', id: 'reasoning-0', delta: 'Je ' },
      { type: 'reasoning-delta', id: 'reasoning-0', delta: 'pense.' },
      { type: 'text-start', id: 'text-0' },
      { type: 'text-delta', id: 'text-0', delta: 'Bon' },
      { type: 'text-delta', id: 'text-0', delta: 'jour' },
      { type: 'reasoning-end', id: 'reasoning-0' },
      { type: 'text-end', id: 'text-0' },
      { type: 'finish', finishReason: 'length', usage: { inputTokens: 3, outputTokens: 5, reasoningTokens: 2 } },
    ]);
  });

  it('finishes on a finish reason without [DONE], with usage unknown', () => {
    const parts = run([chunk({ content: 'x' }), JSON.stringify({ choices: [{ delta: {}, finish_reason: 'stop' }] })]);
    expect(parts.at(-1)).toEqual({
      type: 'finish',
      finishReason: 'stop',
      usage: { inputTokens: undefined, outputTokens: undefined, reasoningTokens: undefined },
    });
  });

  const failure = (parts: ModelStreamPart[]) => {
    const last = parts.at(-1)!;
    expect(last.type).toBe('error');
    const error = (last as { error: unknown }).error;
    expect(ProviderCallError.isInstance(error)).toBe(true);
    return error as ProviderCallError;
  };

  it('calls a body that ends before any finish a cut stream', () => {
    expect(failure(run([chunk({ content: 'x' })]))).toMatchObject({ kind: 'stream_cut', isRetryable: true });
  });

  it('calls bad JSON or an unexpected chunk a malformed stream', () => {
    expect(failure(run([chunk({ content: 'x' }), '{"choices": [']))).toMatchObject({ kind: 'malformed_stream' });
    expect(failure(run([JSON.stringify({ choices: 'nope' })]))).toMatchObject({ kind: 'malformed_stream' });
  });

  it('reports an error object sent mid-stream', () => {
    expect(failure(run([chunk({ content: 'x' }), JSON.stringify({ error: { message: 'overloaded', code: 529 } })]))).toMatchObject({
      kind: 'http_error',
      statusCode: 529,
      isRetryable: true,
    });
  });

  it('ignores what comes after the end', () => {
    const parts = run(['[DONE]', chunk({ content: 'late' })]);
    expect(parts).toEqual([
      { type: 'finish', finishReason: 'other', usage: { inputTokens: undefined, outputTokens: undefined, reasoningTokens: undefined } },
    ]);
  });
});

describe('chatCompletionParts over a Node body', () => {
  const data = (payload: string) => `data: ${payload}\n\n`;
  const open = (body: PassThrough, signal?: AbortSignal) => chatCompletionParts(body, signal)[Symbol.asyncIterator]();

  it('gives the parts in order as chunks arrive, then ends', async () => {
    const body = new PassThrough();
    const parts = open(body);
    expect(await parts.next()).toEqual({ value: { type: 'stream-start', warnings: [] }, done: false });
    const pending = parts.next();
    body.write(data(chunk({ content: 'Bon' })) + data(chunk({ content: 'jour' })));
    expect((await pending).value).toMatchObject({ type: 'response-metadata' });
    const rest: ModelStreamPart[] = [];
    body.end(data(JSON.stringify({ choices: [{ delta: {}, finish_reason: 'stop' }] })) + data('[DONE]'));
    for (let next = await parts.next(); !next.done; next = await parts.next()) rest.push(next.value);
    expect(rest.map((part) => part.type)).toEqual(['text-start', 'text-delta', 'text-delta', 'text-end', 'finish']);
    expect(await parts.next()).toEqual({ value: undefined, done: true });
  });

  it('ends a pending read at once when the reader gives up, and closes the body', async () => {
    const body = new PassThrough();
    const parts = open(body);
    await parts.next();
    const pending = parts.next();
    await parts.return!();
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(body.destroyed).toBe(true);
  });

  it('rejects with the abort reason when the call is aborted, and calls a body closed otherwise a cut stream', async () => {
    const aborted = new PassThrough();
    const controller = new AbortController();
    const abortedParts = open(aborted, controller.signal);
    await abortedParts.next();
    const pending = abortedParts.next();
    controller.abort(new Error('turn over'));
    aborted.destroy();
    await expect(pending).rejects.toThrow('turn over');

    const cut = new PassThrough();
    const cutParts = open(cut);
    await cutParts.next();
    cut.write(data(chunk({ content: 'Bon' })));
    cut.destroy();
    const seen: ModelStreamPart[] = [];
    for (let next = await cutParts.next(); !next.done; next = await cutParts.next()) seen.push(next.value);
    expect(seen.at(-1)).toMatchObject({ type: 'error', error: { kind: 'stream_cut' } });
  });

  it('pauses the body while many parts wait unread, and resumes it once they are read', async () => {
    const body = new PassThrough();
    const parts = open(body);
    body.write(Array.from({ length: 100 }, (_, index) => data(chunk({ content: `m${index} ` }))).join(''));
    await new Promise((resolve) => setImmediate(resolve));
    expect(body.isPaused()).toBe(true);
    // stream-start, metadata, text-start and the 100 deltas
    for (let index = 0; index < 103; index += 1) await parts.next();
    expect(body.isPaused()).toBe(false);
    await parts.return!();
  });
});

describe('chatCompletionParts over a Node body, listened to', () => {
  const data = (payload: string) => `data: ${payload}\n\n`;
  const listen = (body: PassThrough, signal?: AbortSignal) => {
    const parts = chatCompletionParts(body, signal);
    if (!hasPushedParts(parts)) throw new Error('a Node body can be listened to');
    const seen: ModelStreamPart[] = [];
    const ends: unknown[] = [];
    const stop = parts.listen(
      (part) => seen.push(part),
      (reason) => ends.push(reason ?? 'end'),
    );
    return { seen, ends, stop };
  };
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('hands each part over in the callback that read it, the same parts as iterating, then ends once', async () => {
    const body = new PassThrough();
    const { seen, ends } = listen(body);
    expect(seen).toEqual([{ type: 'stream-start', warnings: [] }]);
    body.write(data(chunk({ content: 'Bon' })));
    await tick();
    expect(seen.map((part) => part.type)).toEqual(['stream-start', 'response-metadata', 'text-start', 'text-delta']);
    body.write(data(chunk({ content: 'jour' })));
    body.end(data(JSON.stringify({ choices: [{ delta: {}, finish_reason: 'stop' }] })) + data('[DONE]'));
    await tick();
    expect(seen.slice(4).map((part) => part.type)).toEqual(['text-delta', 'text-end', 'finish']);
    expect(ends).toEqual(['end']);
  });

  it('ends with the abort reason when the call is aborted, with a cut stream when the body closes, and stops when told', async () => {
    const controller = new AbortController();
    const aborted = new PassThrough();
    const abortedParts = listen(aborted, controller.signal);
    controller.abort(new Error('turn over'));
    aborted.destroy();
    await tick();
    expect(abortedParts.ends).toEqual([controller.signal.reason]);

    const cut = new PassThrough();
    const cutParts = listen(cut);
    cut.write(data(chunk({ content: 'Bon' })));
    await tick();
    cut.destroy();
    await tick();
    expect(cutParts.seen.at(-1)).toMatchObject({ type: 'error', error: { kind: 'stream_cut' } });
    expect(cutParts.ends).toEqual(['end']);

    const stopped = new PassThrough();
    const stoppedParts = listen(stopped);
    stoppedParts.stop();
    stopped.write(data(chunk({ content: 'Bon' })));
    await tick();
    expect(stopped.destroyed).toBe(true);
    expect(stoppedParts.seen).toHaveLength(1);
    expect(stoppedParts.ends).toEqual([]);
  });
});
