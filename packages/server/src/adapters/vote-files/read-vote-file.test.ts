import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readVoteFile } from './read-vote-file';
import { VoteFileError } from './vote-file-error';

const directory = mkdtempSync(join(tmpdir(), 'agora-votes-'));
const fixtures = fileURLToPath(new URL('./test-fixtures/', import.meta.url));

function write(name: string, content: string | Buffer): string {
  const path = join(directory, name);
  writeFileSync(path, content);
  return path;
}

const jsonl = (rows: unknown[]): string => rows.map((row) => JSON.stringify(row)).join('\n');

const agoraRows = [
  {
    model_a: 'x',
    model_b: 'y',
    winner: 'model_a',
    len_a: 10,
    len_b: 5,
    headers_a: 1,
    headers_b: 0,
    lists_a: 0,
    lists_b: 2,
    bold_a: 0,
    bold_b: 1,
  },
  {
    model_a: 'y',
    model_b: 'z',
    winner: 'both_bad',
    len_a: 3,
    len_b: 4,
    headers_a: 0,
    headers_b: 0,
    lists_a: 0,
    lists_b: 0,
    bold_a: 0,
    bold_b: 0,
  },
  {
    model_a: 'z',
    model_b: 'x',
    winner: 'tie',
    len_a: 7,
    len_b: 7,
    headers_a: 0,
    headers_b: 1,
    lists_a: 1,
    lists_b: 0,
    bold_a: 2,
    bold_b: 0,
  },
];

describe('readVoteFile', () => {
  it('reads our JSONL rows, plain or gzipped, with style counts', async () => {
    const plain = await readVoteFile(write('votes.jsonl', jsonl(agoraRows)));
    const zipped = await readVoteFile(write('votes.jsonl.gz', gzipSync(jsonl(agoraRows))));
    expect(plain).toMatchObject({ format: 'agora', container: 'jsonl', gzip: false, records: 3 });
    expect(zipped).toMatchObject({ format: 'agora', container: 'jsonl', gzip: true, records: 3 });
    expect(zipped.table).toEqual(plain.table);
    expect([...plain.table.outcome]).toEqual([0, 3, 2]);
    expect(plain.table.votesWithStyle).toBe(3);
    expect([...plain.table.style!.subarray(0, 8)]).toEqual([10, 5, 1, 0, 0, 2, 0, 1]);
  });

  it('reads a FastChat battle file (JSON array) with conv_metadata and "tie (bothbad)"', async () => {
    const battles = [
      {
        model_a: 'p',
        model_b: 'q',
        winner: 'tie (bothbad)',
        anony: true,
        conv_metadata: {
          sum_assistant_a_tokens: 100,
          sum_assistant_b_tokens: 50,
          header_count_a: { h1: 1, h2: 2, h3: 0, h4: 0, h5: 0, h6: 0 },
          header_count_b: { h1: 0, h2: 0, h3: 0, h4: 0, h5: 0, h6: 0 },
          list_count_a: { ordered: 1, unordered: 3 },
          list_count_b: { ordered: 0, unordered: 0 },
          bold_count_a: { '**': 2, __: 1 },
          bold_count_b: { '**': 0, __: 0 },
        },
      },
      {
        model_a: 'q',
        model_b: 'p',
        winner: 'model_b',
        conv_metadata: {
          sum_assistant_a_tokens: 1,
          sum_assistant_b_tokens: 2,
          header_count_a: 0,
          header_count_b: 0,
          list_count_a: 0,
          list_count_b: 0,
          bold_count_a: 0,
          bold_count_b: 0,
        },
      },
    ];
    const result = await readVoteFile(write('battles.json', JSON.stringify(battles, null, 2)));
    expect(result).toMatchObject({ format: 'fastchat', container: 'json-array', records: 2 });
    expect([...result.table.outcome]).toEqual([3, 1]);
    expect([...result.table.style!.subarray(0, 8)]).toEqual([100, 50, 3, 0, 4, 0, 3, 0]);
  });

  it('reads compar:IA votes: de-duplicated by conversation pair, undecided rows skipped', async () => {
    const rows = [
      { conversation_pair_id: 'c1', model_a_name: 'x', model_b_name: 'y', chosen_model_name: 'y', both_equal: false },
      { conversation_pair_id: 'c1', model_a_name: 'x', model_b_name: 'y', chosen_model_name: 'x', both_equal: false },
      { conversation_pair_id: 'c2', model_a_name: 'y', model_b_name: 'x', chosen_model_name: null, both_equal: true },
      { conversation_pair_id: 'c3', model_a_name: 'y', model_b_name: 'x', chosen_model_name: null, both_equal: false },
      { conversation_pair_id: 'c4', model_a_name: 'y', model_b_name: 'x', chosen_model_name: null, both_equal: false, both_bad: true },
    ];
    const result = await readVoteFile(write('comparia.jsonl', jsonl(rows)));
    expect(result).toMatchObject({ format: 'comparia', records: 5, skipped: { duplicate: 1, no_outcome: 1, flagged: 0 } });
    expect([...result.table.outcome]).toEqual([1, 2, 3]);
  });

  it('reads compar:IA and Agora Parquet files (Snappy), INT64 counts included', async () => {
    const comparia = await readVoteFile(`${fixtures}comparia-votes.parquet`);
    expect(comparia).toMatchObject({ format: 'comparia', container: 'parquet', records: 8, skipped: { duplicate: 1, no_outcome: 1 } });
    expect(comparia.table.models).toEqual(['alpha', 'beta', 'gamma']);
    expect([...comparia.table.outcome]).toEqual([0, 1, 2, 3, 1, 1]);
    const agora = await readVoteFile(`${fixtures}agora-votes.parquet`);
    expect(agora).toMatchObject({ format: 'agora', records: 4 });
    expect(agora.table.selfPlayDropped).toBe(1);
    expect([...agora.table.style!.subarray(16, 24)]).toEqual([300, 10, 2, 1, 0, 0, 0, 4]);
  });

  it('counts style from the conversation text when asked', async () => {
    const row = {
      conversation_pair_id: 'c1',
      model_a_name: 'x',
      model_b_name: 'y',
      chosen_model_name: 'x',
      both_equal: false,
      conversation_a: [
        { role: 'user', content: '# not counted' },
        { role: 'assistant', content: '# Title\n- item\n**bold**' },
      ],
      conversation_b: [{ role: 'assistant', content: 'plain answer' }],
      total_conv_a_output_tokens: 42,
      total_conv_b_output_tokens: 7,
    };
    const result = await readVoteFile(write('text.jsonl', jsonl([row])), { styleFromText: true });
    expect([...result.table.style!]).toEqual([42, 7, 1, 0, 1, 0, 1, 0]);
  });

  it('leaves flagged votes out unless asked', async () => {
    const rows = [
      ...agoraRows,
      { model_a: 'x', model_b: 'z', winner: 'model_a', flags: ['identity_leak'] },
      { model_a: 'x', model_b: 'z', winner: 'model_b', abuse: true },
    ];
    const path = write('flagged.jsonl', jsonl(rows));
    expect((await readVoteFile(path)).skipped.flagged).toBe(2);
    expect((await readVoteFile(path, { excludeFlags: [] })).table.length).toBe(5);
  });

  it.each([
    [
      'an unknown winner',
      jsonl([agoraRows[0], agoraRows[1], { model_a: 'x', model_b: 'y', winner: 'draw' }]),
      /bad\.jsonl, line 3: unknown winner "draw"/,
    ],
    ['invalid JSON', `${jsonl([agoraRows[0]])}\n{"model_a": "x",`, /bad\.jsonl, line 2: invalid JSON/],
    ['a missing model', jsonl([{ model_a: 'x', model_b: '', winner: 'tie' }]), /bad\.jsonl, line 1: model_b must be a non-empty string/],
    ['a negative count', jsonl([{ ...agoraRows[0], bold_b: -1 }]), /line 1: bold_b must be a non-negative integer/],
    ['an unrecognised row', jsonl([{ a: 1 }]), /line 1: unrecognised vote row/],
    ['a row that is not an object', `${jsonl([agoraRows[0]])}\n[1, 2]`, /line 2: expected a JSON object/],
    [
      'a compar:IA choice of a third model',
      jsonl([{ model_a_name: 'x', model_b_name: 'y', chosen_model_name: 'z' }]),
      /line 1: chosen_model_name "z"/,
    ],
  ])('stops on %s, naming the file and the line', async (_, content, message) => {
    const path = write('bad.jsonl', content);
    const error = await readVoteFile(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VoteFileError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(path);
  });

  it('reports a missing file and corrupt gzip data', async () => {
    await expect(readVoteFile(join(directory, 'missing.jsonl'))).rejects.toThrow(/missing\.jsonl: cannot open \(ENOENT\)/);
    const corrupt = Buffer.concat([gzipSync(jsonl(agoraRows)).subarray(0, 20), Buffer.from('garbage')]);
    await expect(readVoteFile(write('corrupt.jsonl.gz', corrupt))).rejects.toThrow(VoteFileError);
  });

  it('counts blank lines and CRLF endings in line numbers, fast path or not', async () => {
    const lines = [
      JSON.stringify(agoraRows[0]),
      '',
      '  ',
      JSON.stringify(agoraRows[1]),
      '{ "model_a" : "p" , "model_b":"q","winner":"oops"}',
    ];
    const path = write('crlf.jsonl', `${lines.join('\r\n')}\r\n`);
    await expect(readVoteFile(path)).rejects.toThrow(/crlf\.jsonl, line 5: unknown winner "oops"/);
    const good = write('crlf-good.jsonl', `${[...lines.slice(0, 4), JSON.stringify(agoraRows[2])].join('\r\n')}\r\n`);
    expect((await readVoteFile(good)).table.length).toBe(3);
  });

  it('reads an empty file as no votes', async () => {
    const result = await readVoteFile(write('empty.jsonl', '\n\n'));
    expect(result.table.length).toBe(0);
    expect(result.records).toBe(0);
  });
});

describe('readVoteFile in parallel', () => {
  const rows = Array.from({ length: 3000 }, (_, index) => ({
    ...agoraRows[index % 3]!,
    model_a: `m${index % 7}`,
    model_b: `m${(index * 3 + 1) % 11}`,
  }));

  it('gives exactly the single-threaded table', async () => {
    const path = write('many.jsonl', jsonl(rows));
    const single = await readVoteFile(path, { parallel: false });
    const parallel = await readVoteFile(path, { parallelMinBytes: 0 });
    expect(parallel.table).toEqual(single.table);
    expect(parallel.records).toBe(3000);
    expect(single.table.selfPlayDropped).toBeGreaterThan(0);
  });

  it('reports the line of a bad row in the file, not in its part', async () => {
    const lines = jsonl(rows).split('\n');
    lines[2499] = '{"model_a":"x","model_b":"y","winner":"draw"}';
    const path = write('bad-many.jsonl', lines.join('\n'));
    await expect(readVoteFile(path, { parallelMinBytes: 0 })).rejects.toThrow(/bad-many\.jsonl, line 2500: unknown winner "draw"/);
  });
});
