import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgora } from './run-agora';
import { databaseUrl, dumpStore } from './store-dump';
import { DIALECTS, type TestStore } from './test-db';

const fixtures = fileURLToPath(new URL('./fixtures/comparia/', import.meta.url));
const DATASETS = ['conversations', 'votes', 'reactions'] as const;

/**
 * What the public columns cannot carry back: compar:IA's message `metadata` (output tokens,
 * duration, generation id) and `reasoning_content` — the exported messages are `{role, content}`
 * (docs/datasets.md#round-trip) — and so the vote's output tokens taken from them.
 */
const NOT_EXPORTED: Record<string, readonly string[]> = {
  turn_sides: ['reasoning', 'output_tokens', 'output_tokens_source', 'duration_ms', 'source_meta'],
  votes: ['tokens_a', 'tokens_b'],
};

function withoutUnexported(dump: Record<string, Record<string, unknown>[]>): Record<string, Record<string, unknown>[]> {
  return Object.fromEntries(
    Object.entries(dump).map(([table, rows]) => [
      table,
      rows.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !NOT_EXPORTED[table]?.includes(column)))),
    ]),
  );
}

/** The files of one format of an exported subset: `train.jsonl`, or the Parquet shards `train-00000.parquet`, … */
const filesOf = (folder: string, dataset: string, extension: string): string[] =>
  readdirSync(join(folder, dataset))
    .filter((name) => name.startsWith('train') && name.endsWith(`.${extension}`))
    .sort()
    .map((name) => join(folder, dataset, name));

const importFiles = (store: TestStore, folder: string, extension: string) =>
  runAgora(['import', 'comparia', ...DATASETS.flatMap((dataset) => [`--${dataset}`, ...filesOf(folder, dataset, extension)])], '', {
    DATABASE_URL: databaseUrl(store.location),
  });

const exportStore = (store: TestStore, out: string) =>
  runAgora(['export', '--out', out, '--format', 'parquet,jsonl', '--datasets', DATASETS.join(',')], '', {
    DATABASE_URL: databaseUrl(store.location),
  });

// Spawns the real command line a dozen times (a few seconds each).
for (const dialect of DIALECTS) {
  describe(`compar:IA files → import → export → import (${dialect.name})`, () => {
    const stores: TestStore[] = [];
    const directory = mkdtempSync(join(tmpdir(), `agora-round-trip-${dialect.name}-`));

    beforeAll(async () => {
      stores.push(...(await Promise.all([dialect.create(), dialect.create(), dialect.create()])));
    });
    afterAll(async () => {
      await Promise.all(stores.map((store) => store.drop()));
    });

    it('reproduces the same rows, and the second export is the first one', async () => {
      const [first, fromParquet, fromJsonl] = stores as [TestStore, TestStore, TestStore];
      // The fixture conversations that compar:IA screened (a vote or reaction row alone brings no
      // screening, and an unscreened conversation is never exported).
      const screened = new Set(
        readFileSync(`${fixtures}conversations.jsonl`, 'utf8')
          .trim()
          .split('\n')
          .map((line) => (JSON.parse(line) as { conversation_pair_id: string }).conversation_pair_id),
      );
      for (const dataset of DATASETS) {
        const lines = readFileSync(`${fixtures}${dataset}.jsonl`, 'utf8').trim().split('\n');
        const kept = lines.filter((line) => screened.has((JSON.parse(line) as { conversation_pair_id: string }).conversation_pair_id));
        writeFileSync(join(directory, `${dataset}.jsonl`), `${kept.join('\n')}\n`);
      }
      const initial = await runAgora(
        ['import', 'comparia', ...DATASETS.flatMap((dataset) => [`--${dataset}`, join(directory, `${dataset}.jsonl`)])],
        '',
        { DATABASE_URL: databaseUrl(first.location) },
      );
      expect(initial.stderr).toBe('');
      expect(initial.code).toBe(0);

      const exported = await exportStore(first, join(directory, 'export-1'));
      expect(exported.code, exported.stderr).toBe(0);
      for (const [store, extension] of [
        [fromParquet, 'parquet'],
        [fromJsonl, 'jsonl'],
      ] as const) {
        const outcome = await importFiles(store, join(directory, 'export-1'), extension);
        expect(outcome.code, outcome.stderr).toBe(0);
        const summaries = outcome.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { dataset: string; inserted: number; skipped: Record<string, number> });
        expect(summaries.map((summary) => [summary.dataset, summary.inserted, summary.skipped])).toEqual([
          ['conversations', 4, {}],
          ['votes', 3, {}],
          ['reactions', 3, {}],
        ]);
      }
      const original = await dumpStore(first.location);
      expect(original.duels).toHaveLength(4);
      expect(withoutUnexported(await dumpStore(fromParquet.location))).toEqual(withoutUnexported(original));
      expect(await dumpStore(fromJsonl.location)).toEqual(await dumpStore(fromParquet.location));

      const again = await exportStore(fromParquet, join(directory, 'export-2'));
      expect(again.code, again.stderr).toBe(0);
      for (const dataset of DATASETS) {
        for (const extension of ['jsonl', 'parquet']) {
          const [firstFiles, secondFiles] = [
            filesOf(join(directory, 'export-1'), dataset, extension),
            filesOf(join(directory, 'export-2'), dataset, extension),
          ];
          expect(secondFiles.map((path) => path.replace('export-2', 'export-1'))).toEqual(firstFiles);
          for (const [index, path] of firstFiles.entries())
            expect(readFileSync(secondFiles[index]!).equals(readFileSync(path)), path).toBe(true);
        }
      }
      const card = (run: string) => readFileSync(join(directory, run, 'README.md'), 'utf8').replace(/on \d{4}-\d\d-\d\dT[\d:.]+Z/, 'on …');
      expect(card('export-2')).toEqual(card('export-1'));
    }, 180_000);
  });
}
