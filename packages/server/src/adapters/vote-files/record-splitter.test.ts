import { describe, expect, it } from 'vitest';
import { ArraySplitter, LineBlocks } from './record-splitter';

const decoder = new TextDecoder();

function feed(splitter: ArraySplitter, text: string, chunkSize: number): void {
  const bytes = new TextEncoder().encode(text);
  for (let start = 0; start < bytes.length; start += chunkSize) splitter.push(bytes.slice(start, start + chunkSize));
  splitter.end();
}

describe('LineBlocks', () => {
  it.each([1, 3, 7, 1000])('gives whole lines whatever the chunk size (%i characters)', (chunkSize) => {
    const blocks: string[] = [];
    const splitter = new LineBlocks((text) => blocks.push(text));
    const text = '{"a":1}\r\n\n  \n{"b":"é"}\n{"c":3}';
    for (let start = 0; start < text.length; start += chunkSize) splitter.push(text.slice(start, start + chunkSize));
    splitter.end();
    expect(blocks.join('')).toBe(text);
    for (const block of blocks.slice(0, -1)) expect(block.endsWith('\n')).toBe(true);
    expect(blocks.at(-1)).toMatch(/\{"c":3\}$/);
  });
});

describe('ArraySplitter', () => {
  const text = ' [ {"a":"x]}","b":{"c":[1,2]}} ,\n{"d":"\\"}"} ] ';

  it.each([1, 2, 5, 1000])('yields each element with %i-byte chunks', (chunkSize) => {
    const records: [unknown, number][] = [];
    const splitter = new ArraySplitter((bytes, start, end, element) =>
      records.push([JSON.parse(decoder.decode(bytes.subarray(start, end))), element]),
    );
    feed(splitter, text, chunkSize);
    expect(records).toEqual([
      [{ a: 'x]}', b: { c: [1, 2] } }, 1],
      [{ d: '"}' }, 2],
    ]);
  });

  it('rejects elements that are not objects and unclosed arrays', () => {
    expect(() => feed(new ArraySplitter(() => undefined), '[{"a":1}, 5]', 4)).toThrow(/element 2 is not a JSON object/);
    expect(() => feed(new ArraySplitter(() => undefined), '[{"a":1}', 4)).toThrow(/not closed/);
  });
});
