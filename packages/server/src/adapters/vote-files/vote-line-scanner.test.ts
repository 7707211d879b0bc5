import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readVoteFile } from './read-vote-file';

const directory = mkdtempSync(join(tmpdir(), 'agora-scanner-'));

function write(name: string, content: string): string {
  const path = join(directory, name);
  writeFileSync(path, content);
  return path;
}

const style = '"len_a":10,"len_b":5,"headers_a":1,"headers_b":0,"lists_a":0,"lists_b":2,"bold_a":0,"bold_b":1';

/** Lines the byte scanner reads itself, and lines it must hand to JSON.parse (escapes, flags, odd numbers). */
const lines = [
  `{"model_a":"x","model_b":"y","winner":"model_a",${style}}`,
  ` { "model_a" : "y" , "model_b":"z", "winner" : "tie (bothbad)" , ${style} }\r`,
  '',
  '   \t',
  `{"model_a":"z","model_b":"x","winner":"tie_bothbad"}`,
  `{"model_a":"mistral\\/large","model_b":"x","winner":"model_b"}`,
  `{"model_a":"modèle-é","model_b":"x","winner":"both_bad","note":"a \\"quoted\\" word","n":-3,"ok":true,"z":null}`,
  `{"model_a":"x","model_b":"y","winner":"model_a","flags":["abuse"]}`,
  `{"model_a":"x","model_b":"y","winner":"model_a","identity_leak":true}`,
  `{"model_a":"x","model_b":"y","winner":"model_a","identity_leak":false,"abuse":false}`,
  `{"model_a":"x","model_b":"y","winner":"model_b","len_a":1.0,"len_b":2e0,"headers_a":0,"headers_b":0,"lists_a":0,"lists_b":0,"bold_a":0,"bold_b":0}`,
  `{"model_a":"x","model_b":"y","winner":"model_b","headers_a":3}`,
  `{"model_a":"a","model_b":"a","winner":"tie"}`,
  `{"model_a":"x","model_b":"y","winner":"model_a","model_a":"z"}`,
  `{"model_a":"x","model_b":"y","winner":"model_a","meta":{"k":[1,2]},${style}}`,
  // the usual line (usual-vote-line.ts) beside the same names escaped or spelt in ways it leaves to the others
  `{"model_a":"modèle","model_b":"x","winner":"tie_bothbad",${style}}`,
  `{"model_a":"mod\\u00e8le","model_b":"x","winner":"tie_bothbad",${style}}`,
  `{"model_a":"x","model_b":"modèle","winner":"tie (bothbad)",${style}}`,
  `{"winner":"both_bad","model_b":"modèle","model_a":"y",${style}}`,
  `{"model_a":"y","model_b":"modèle","winner":"model_b",${style.replace('"len_a":10,"len_b":5', '"len_b":5,"len_a":10')}}`,
  `{"model_a":"y","model_b":"modèle","winner":"model_b",${style.replace(':1,', ': 1,')}}`,
  `{"model_a":"y","model_b":"x","winner":"model_a","len_a":4294967295,"len_b":70000,"headers_a":0,"headers_b":0,"lists_a":0,"lists_b":0,"bold_a":0,"bold_b":0}`,
];

describe('the byte scanner of vote lines', () => {
  it('gives the same table, counts and skips as JSON.parse on every kind of line', async () => {
    const path = write('mixed.jsonl', `${lines.join('\n')}\n{"model_a":"q","model_b":"x","winner":"tie"}`);
    const scanned = await readVoteFile(path);
    const parsed = await readVoteFile(path, { parallel: false });
    expect(scanned.table).toEqual(parsed.table);
    expect(scanned.records).toBe(parsed.records);
    expect(scanned.skipped).toEqual(parsed.skipped);
    expect(scanned.table.length).toBe(18);
    expect(scanned.table.models).toContain('mistral/large');
    expect(scanned.table.models).toContain('modèle-é');
    expect(scanned.table.models.filter((name) => name.startsWith('modèle'))).toEqual(['modèle', 'modèle-é']);
    expect(scanned.skipped.flagged).toBe(2);
  });

  it('checks but does not keep the style counts when asked not to, on every reader', async () => {
    const path = write('mixed-no-style.jsonl', `${lines.join('\n')}\n`);
    const kept = await readVoteFile(path);
    expect(kept.table.votesWithStyle).toBe(11);
    for (const parallel of [true, false]) {
      const { table, records, skipped } = await readVoteFile(path, { parallel, styleCounts: false });
      expect(table.style).toBeUndefined();
      expect(table.votesWithStyle).toBe(0);
      expect({ ...table, style: undefined, votesWithStyle: 0 }).toEqual({ ...kept.table, style: undefined, votesWithStyle: 0 });
      expect({ records, skipped }).toEqual({ records: kept.records, skipped: kept.skipped });
    }
    const bad = write('bad-count-no-style.jsonl', `${lines[0]}\n${lines[0]!.replace('"bold_b":1', '"bold_b":-1')}\n`);
    for (const parallel of [true, false]) {
      await expect(readVoteFile(bad, { parallel, styleCounts: false })).rejects.toThrow(/, line 2: /);
    }
  });

  it('reads thousands of distinct model names, in the usual form and others, as JSON.parse does', async () => {
    // more names than the name table's first size (it grows), some differing in one byte only
    const rows = Array.from({ length: 3000 }, (_, index) => {
      const pair = `"model_a":"m-${index}","model_b":"m-${(index * 7 + 1) % 3000}x"`;
      if (index % 3 === 0) return `{${pair},"winner":"tie"}`;
      if (index % 3 === 1) return `{${pair},"winner":"model_b",${style}}`;
      return `{"winner":"model_a", ${pair},${style}}`;
    });
    const path = write('many.jsonl', `${rows.join('\n')}\n`);
    const scanned = await readVoteFile(path);
    const parsed = await readVoteFile(path, { parallel: false });
    expect(scanned.table).toEqual(parsed.table);
    expect(scanned.table.models.length).toBe(6000);
  });

  it('reads a file of several 4 MB blocks, lines across their ends and one longer than a block, as JSON.parse does', async () => {
    // 60,000 lines of about 190 bytes: lines cross the ends of the 4 MB blocks read while the previous one is scanned
    const rows = Array.from({ length: 60_000 }, (_, index) => {
      const pair = `"model_a":"vendor${index % 13}/model-${index % 101}","model_b":"vendor${index % 7}/model-${(index * 7) % 89}-b"`;
      if (index % 997 === 0) return '';
      if (index % 1009 === 0) return ` {${pair}, "winner":"tie"}`;
      return `{${pair},"winner":"${['model_a', 'model_b', 'tie', 'tie_bothbad'][index % 4]}",${style}}`;
    });
    rows[30_000] = `{"model_a":"x","model_b":"y","winner":"tie","note":"${'n'.repeat(5 << 20)}"}`;
    const path = write('blocks.jsonl', `${rows.join('\n')}\n`);
    const scanned = await readVoteFile(path);
    const parsed = await readVoteFile(path, { parallel: false });
    expect(scanned.table).toEqual(parsed.table);
    expect(scanned.records).toBe(60_000 - 61);
    rows[59_000] = rows[59_000]!.replace('"len_a":10', '"len_a":1O');
    const bad = write('blocks-bad.jsonl', rows.join('\n'));
    await expect(readVoteFile(bad)).rejects.toThrow(/blocks-bad\.jsonl, line 59001: invalid JSON/);
  });

  it('names the same line and problem as JSON.parse for each bad line', async () => {
    const bad = [
      '{"model_a":"x","model_b":"y","winner":"draw"}',
      '{"model_a":"","model_b":"y","winner":"tie"}',
      '{"model_a":"x","model_b":"y","winner":"tie","len_a":01,"len_b":1,"headers_a":0,"headers_b":0,"lists_a":0,"lists_b":0,"bold_a":0,"bold_b":0}',
      '{"model_a":"x","model_b":"y","winner":"tie","len_a":-1,"len_b":1,"headers_a":0,"headers_b":0,"lists_a":0,"lists_b":0,"bold_a":0,"bold_b":0}',
      '{"model_a":"x","model_b":"y","winner":"tie","len_a":4294967296,"len_b":1,"headers_a":0,"headers_b":0,"lists_a":0,"lists_b":0,"bold_a":0,"bold_b":0}',
      '{"model_a":"x","model_b":"y","winner":"tie","len_a":1}',
      '{"model_a":"x","model_b":"y","winner":"tie",}',
      '{"model_a":"x","model_b":"y","winner":"tie"} x',
      '{"model_a":"x","model_b":"y"}',
      '["x","y","tie"]',
      '{"model_a":"x","model_b":"y","winner":"tie"',
      '{"model_a":"x","model_b":"y","winner":"model_c"}',
      '{"model_a":"x","model_b":"y","winner":"tie","len_a":1,"len_b":2,"headers_a":0,"headers_b":0,"lists_a":0,"lists_b":0,"bold_a":0,"bold_b":1.5}',
      // usual lines but for one thing
      `{"model_a":"x","model_b":"y","winner":"tie",${style.replace(',"bold_b":1', '')}}`,
      `{"model_a":"x","model_b":"y","winner":"Tie",${style}}`,
      `{"model_a":"x","model_b":"y","winner":"tie",${style.replace('"len_a":10', '"len_a":"10"')}}`,
      `{"model_a":"x","model_b":"y","winner":"tie",${style.replace('"bold_b":1', '"bold_b":null')}}`,
      `{"model_a":"x","model_b":"y","winner":"tie",${style}`,
    ];
    for (const [index, line] of bad.entries()) {
      const path = write(`bad-${index}.jsonl`, `${lines[0]}\n\n${line}\n${lines[0]}\n`);
      const scanned = await readVoteFile(path).then(
        () => 'no error',
        (error: Error) => error.message,
      );
      const parsed = await readVoteFile(path, { parallel: false }).then(
        () => 'no error',
        (error: Error) => error.message,
      );
      expect(scanned, line).toBe(parsed);
      expect(scanned, line).toMatch(/, line 3: /);
    }
  });
});
