import { describe, expect, it } from 'vitest';
import { cellText, filesByLanguage, formatBytes } from './published-files';

const file = (dataset: string, language: string, format: string, rows: number, bytes: number) => ({
  dataset,
  language,
  format,
  path: `${dataset}/${language}/train-00000.${format}`,
  rows,
  bytes,
  url: null,
});

describe('the datasets page’s files', () => {
  it('groups a dataset’s files by language, rows counted once across formats, most rows first', () => {
    const groups = filesByLanguage(
      [
        file('votes', 'fr', 'parquet', 3, 900),
        file('votes', 'en', 'parquet', 7, 1200),
        file('votes', 'fr', 'jsonl', 3, 4000),
        file('dpo', 'fr', 'parquet', 9, 1),
      ],
      'votes',
    );
    expect(groups.map((group) => [group.language, group.rows, group.bytes])).toEqual([
      ['en', 7, { parquet: 1200 }],
      ['fr', 3, { parquet: 900, jsonl: 4000 }],
    ]);
  });

  it('writes sizes and cells people can read', () => {
    expect(formatBytes(532, 'en')).toBe('532 byte');
    expect(formatBytes(1_250_000, 'en')).toBe('1.3 MB');
    expect(
      cellText(
        [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ],
        'yes',
        'no',
      ),
    ).toBe('hello');
    expect(cellText(['fr', 'en'], 'yes', 'no')).toBe('fr, en');
    expect(cellText(false, 'yes', 'no')).toBe('no');
    expect(cellText(null, 'yes', 'no')).toBe('–');
  });
});
