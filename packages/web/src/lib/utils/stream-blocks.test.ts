import { describe, expect, it } from 'vitest';
import { BlockSplitter } from './stream-blocks';

describe('BlockSplitter', () => {
  it('finishes a block at a blank line and keeps the tail', () => {
    const splitter = new BlockSplitter();
    expect(splitter.push('Hello **wor')).toEqual([]);
    expect(splitter.tail).toBe('Hello **wor');
    expect(splitter.push('ld**\n\nNext')).toEqual(['Hello **world**\n\n']);
    expect(splitter.tail).toBe('Next');
    expect(splitter.flush()).toEqual(['Next']);
  });

  it('never cuts inside a code fence', () => {
    const splitter = new BlockSplitter();
    expect(splitter.push('```python\nprint(1)\n\nprint(2)\n')).toEqual([]);
    expect(splitter.push('```\n\nAfter')).toEqual(['```python\nprint(1)\n\nprint(2)\n```\n\n']);
  });

  it('gives the same text back, whatever the delta sizes', () => {
    const text = 'a\n\nb c\n\n```\nx\n\ny\n```\n\n- one\n- two\n\nend';
    for (const size of [1, 2, 5, 100]) {
      const splitter = new BlockSplitter();
      const blocks: string[] = [];
      for (let i = 0; i < text.length; i += size) blocks.push(...splitter.push(text.slice(i, i + size)));
      blocks.push(...splitter.flush());
      expect(blocks.join('').replace(/\n+/g, '\n')).toBe(text.replace(/\n+/g, '\n'));
    }
  });
});
