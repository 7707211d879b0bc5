import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_ROOTS, describeImportCycles, findImportCycles } from '../../../scripts/import-cycles';

/**
 * The imports form no circle across files (docs/ARCHITECTURE.md, "Layers"), and the check that
 * `npm run check` runs (scripts/import-cycles.ts) sees one: two probe files that import each other,
 * one of them for a type only, are reported; the tree has none.
 */
const repository = join(import.meta.dirname, '../../..');
const probeFolder = 'packages/server/test/import-cycle-probe';

beforeAll(() => {
  mkdirSync(join(repository, probeFolder), { recursive: true });
  writeFileSync(
    join(repository, probeFolder, 'first.ts'),
    "import { second } from './second';\nexport type First = 'first';\nexport const first = second;\n",
  );
  writeFileSync(
    join(repository, probeFolder, 'second.ts'),
    "import type { First } from './first';\nexport const second: First = 'first';\n",
  );
});

afterAll(() => rmSync(join(repository, probeFolder), { recursive: true, force: true }));

describe('import cycles', () => {
  it('reports two files that import each other, a type-only import included', async () => {
    const found = await findImportCycles([{ folders: [probeFolder], tsConfig: 'packages/server/tsconfig.json' }], repository);
    expect(found).toEqual({ files: 2, cycles: [[`${probeFolder}/first.ts`, `${probeFolder}/second.ts`]], unresolved: [] });
    expect(describeImportCycles(found)).toEqual([
      '1 import cycle(s) in 2 files (each file imports the next):',
      `  ${probeFolder}/first.ts > ${probeFolder}/second.ts > ${probeFolder}/first.ts`,
    ]);
  }, 60_000);

  it('finds none in the packages, every import followed to its file', async () => {
    const found = await findImportCycles(IMPORT_ROOTS, repository);
    expect(found.files).toBeGreaterThan(400);
    expect(found.cycles.map((cycle) => cycle.join(' > '))).toEqual([]);
    expect(found.unresolved).toEqual([]);
    expect(describeImportCycles(found)).toEqual([`no import cycle in ${found.files} files`]);
  }, 120_000);
});
