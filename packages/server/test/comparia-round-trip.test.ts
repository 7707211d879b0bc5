import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subsetFiles } from './export-files';
import { runAgora } from './run-agora';
import { databaseUrl, dumpStore } from './store-dump';
import { DIALECTS, type TestStore } from './test-db';

const fixtures = fileURLToPath(new URL('./fixtures/comparia/', import.meta.url));
const DATASETS = ['conversations', 'votes', 'reactions'] as const;

const importFiles = (store: TestStore, folder: string, extension: 'parquet' | 'jsonl') =>
  // compar:IA's own screening is taken as is: the round trip is about the files, not Agora's screening of them.
  runAgora(
    [
      'import',
      'comparia',
      '--trust-source',
      ...DATASETS.flatMap((dataset) => [`--${dataset}`, ...subsetFiles(folder, dataset, extension)]),
    ],
    '',
    {
      DATABASE_URL: databaseUrl(store.location),
    },
  );

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
        ['import', 'comparia', '--trust-source', ...DATASETS.flatMap((dataset) => [`--${dataset}`, join(directory, `${dataset}.jsonl`)])],
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
        // One summary line per file (one file set per language): summed per dataset.
        const inserted = new Map<string, number>();
        for (const summary of summaries) {
          expect(summary.skipped, summary.dataset).toEqual({});
          inserted.set(summary.dataset, (inserted.get(summary.dataset) ?? 0) + summary.inserted);
        }
        expect([...inserted]).toEqual([
          ['conversations', 4],
          ['votes', 3],
          ['reactions', 3],
        ]);
      }
      const original = await dumpStore(first.location);
      expect(original.duels).toHaveLength(4);
      // Answers round-trip whole: messages keep compar:IA's `reasoning_content` and `metadata` (docs/datasets.md#round-trip).
      expect(await dumpStore(fromParquet.location)).toEqual(original);
      expect(await dumpStore(fromJsonl.location)).toEqual(await dumpStore(fromParquet.location));

      const again = await exportStore(fromParquet, join(directory, 'export-2'));
      expect(again.code, again.stderr).toBe(0);
      for (const dataset of DATASETS) {
        for (const [extension, tier] of [
          ['jsonl', 'gated'],
          ['parquet', 'gated'],
          ['jsonl', 'public'],
          ['parquet', 'public'],
        ] as const) {
          const [firstFiles, secondFiles] = [
            subsetFiles(join(directory, 'export-1'), dataset, extension, tier),
            subsetFiles(join(directory, 'export-2'), dataset, extension, tier),
          ];
          expect(secondFiles.map((path) => path.replace('export-2', 'export-1'))).toEqual(firstFiles);
          for (const [index, path] of firstFiles.entries())
            expect(readFileSync(secondFiles[index]!).equals(readFileSync(path)), path).toBe(true);
        }
      }
      const card = (run: string) =>
        readFileSync(join(directory, run, 'gated', 'README.md'), 'utf8').replace(/on \d{4}-\d\d-\d\d \(UTC\)/, 'on …');
      expect(card('export-2')).toEqual(card('export-1'));
    }, 180_000);
  });
}
