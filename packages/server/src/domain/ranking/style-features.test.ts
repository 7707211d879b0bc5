import { describe, expect, it } from 'vitest';
import { buildStyleDesign, countStyleElements } from './style-features';
import { buildVoteTable } from './vote-table';

const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;

describe('countStyleElements (FastChat rules)', () => {
  it('counts headers, list items and bold outside fenced code', () => {
    const text = [
      '# Title',
      '## Part',
      '####### not a header',
      '#no space',
      '- one',
      '  * two',
      '3. three',
      'Some **bold** and __also bold__ and ** not bold',
      '```',
      '# comment in code',
      '- not a list',
      '**not bold**',
      '```',
    ].join('\n');
    expect(countStyleElements([text], words)).toEqual({ len: words(text), headers: 2, lists: 3, bold: 2 });
  });

  it('sums over the assistant messages', () => {
    const counts = countStyleElements(['# A\n- x', '**b**'], () => 1);
    expect(counts).toEqual({ len: 2, headers: 1, lists: 1, bold: 1 });
  });
});

describe('buildStyleDesign', () => {
  const votes = [
    { len: [10, 0], bold: [1, 1] },
    { len: [0, 10], bold: [2, 2] },
    { len: [5, 5], bold: [0, 0] },
  ].map(({ len, bold }) => ({
    modelA: 'a',
    modelB: 'b',
    outcome: 'tie' as const,
    style: {
      a: { len: len[0]!, headers: 0, lists: 0, bold: bold[0]! },
      b: { len: len[1]!, headers: 0, lists: 0, bold: bold[1]! },
    },
  }));

  it('uses d = (a − b)/(a + b + 1) standardised with the population SD', () => {
    const design = buildStyleDesign(buildVoteTable(votes));
    const d = [10 / 11, -10 / 11, 0];
    const std = Math.sqrt((2 * (10 / 11) ** 2) / 3);
    expect(design.meanD[0]).toBeCloseTo(0, 12);
    expect(design.stdD[0]).toBeCloseTo(std, 12);
    const { x, order } = design.rows;
    d.forEach((value, row) => expect(x[order.indexOf(row) * 4]).toBeCloseTo(value / std, 12));
  });

  it('marks constant columns (headers, lists, bold here) and zeroes them', () => {
    const design = buildStyleDesign(buildVoteTable(votes));
    expect(design.active).toEqual([0]);
    expect(design.stdD.slice(1)).toEqual([0, 0, 0]);
    expect([0, 1, 2].map((vote) => design.rows.x[vote * 4 + 3])).toEqual([0, 0, 0]);
  });

  it('detects a constant non-zero column despite rounding', () => {
    const constant = Array.from({ length: 1001 }, (_, index) => ({
      modelA: 'a',
      modelB: 'b',
      outcome: 'tie' as const,
      style: {
        a: { len: 10 + (index % 7), headers: 3, lists: 0, bold: 0 },
        b: { len: 5, headers: 1, lists: 0, bold: 0 },
      },
    }));
    const design = buildStyleDesign(buildVoteTable(constant));
    expect(design.stdD[1]).toBe(0);
    expect(design.meanD[1]).toBeCloseTo(2 / 5, 12);
    expect(design.active).toEqual([0]);
  });

  it("supports compar:IA's (a − b)/(a + b) rule, 0 when both are 0", () => {
    const design = buildStyleDesign(buildVoteTable(votes), 'compar');
    expect(design.meanD[0]).toBeCloseTo(0, 12);
    expect(design.stdD[0]).toBeCloseTo(Math.sqrt(2 / 3), 12);
  });
});
