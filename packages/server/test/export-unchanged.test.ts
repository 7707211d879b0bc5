import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../src/config/catalogue';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import { createStore } from '../src/db/unit-of-work';
import { DATASET_NAMES } from '../src/domain/datasets/export-columns';
import { exportModelFacts } from '../src/domain/datasets/export-model-facts';
import { DatasetExportService } from '../src/services/dataset-export.service';

/**
 * The export of a fixed store, byte for byte. `fixtures/export-golden/store.sqlite` holds the seeded
 * arena conversations of dataset-export.test.ts (every privacy case, follow-ups, failures, votes,
 * reactions, cohorts) and the compar:IA fixture files imported, with its salt; `digests.json` is
 * the SHA-256 of every file the export wrote from it, written again when the export gained its
 * two tiers, one file set per language and compar:IA's message metadata, and when conversations and the TRL rows gained `capabilities` (null in this store: it predates the labels), and when every subset gained `prompt_cluster` and the cards their duplicate-prompts section (all 58 files; null in this store: it predates clustering). A change that alters an exported byte fails here: if it is meant, say so in its commit
 * and write the new digests.
 */
const fixtures = join(import.meta.dirname, 'fixtures', 'export-golden');
const directory = mkdtempSync(join(tmpdir(), 'agora-export-unchanged-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('the export of a fixed store', () => {
  it('writes the same bytes as before, in every dataset and format, card included', async () => {
    const path = join(directory, 'store.db');
    copyFileSync(join(fixtures, 'store.sqlite'), path);
    const db = openDatabase({ kind: 'sqlite', path });
    await migrateToLatest(db);
    const store = createStore(db);
    const catalogue = parseCatalogue(readFileSync(join(fixtures, 'models.yaml'), 'utf8'), 'models.yaml', {});
    const facts = exportModelFacts(catalogue, { method: '0.9.1', zone: undefined });
    const out = join(directory, 'out');
    try {
      const result = await new DatasetExportService(
        store.datasets,
        facts,
        { privateCohorts: ['school-2026', 'pilot'], batchSize: 3, rowGroupRows: 2 },
        () => new Date('2026-11-30T08:00:00.000Z'),
      ).export({ formats: ['parquet', 'jsonl'], datasets: [...DATASET_NAMES], outDir: out });
      const digests = Object.fromEntries(
        [...result.files.map((file) => file.path), ...result.cards.map((card) => card.path)].map((file) => [
          file.slice(out.length + 1),
          createHash('sha256').update(readFileSync(file)).digest('hex'),
        ]),
      );
      expect(digests).toEqual(JSON.parse(readFileSync(join(fixtures, 'digests.json'), 'utf8')));
    } finally {
      await store.close();
    }
  });
});
