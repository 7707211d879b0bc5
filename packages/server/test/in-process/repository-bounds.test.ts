import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findOutsideReferences, scanRepository } from '../../../../scripts/repository-bounds';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
/** This file holds sample lines that point out of the repository on purpose: the scan leaves it out. */
const self = fileURLToPath(import.meta.url);
/** Where the sample lines are supposed to stand: a unit test six folders below the root. */
const sampleFile = `${root}packages/server/src/cli/commands/sample.test.ts`;
const flagged = (text: string) => findOutsideReferences(sampleFile, text, root).map(({ line, reason }) => ({ line, reason }));

describe('no test reads a file outside the repository', () => {
  it('finds no source file under packages/, e2e/ or scripts/ that points out of the repository', () => {
    const { files, references } = scanRepository(root, [self]);
    expect(files).toBeGreaterThan(100);
    expect(references.map(({ file, line, text, reason }) => `${file}:${line}: ${reason}: ${text}`)).toEqual([]);
  });

  it('flags a file beside the repository reached by URL, by joined path or by absolute path, naming the line', () => {
    const sample = [
      "import { readFileSync } from 'node:fs';",
      "const vectors = new URL('../../../../../../shared/data/x.json', import.meta.url);",
      "const up = new URL('../../../../../../elsewhere/x.json', import.meta.url);",
      "const joined = join(import.meta.dirname, '..', '..', '..', '..', '..', '..', 'elsewhere');",
      "const named = join(folder, '..', 'shared', 'data');",
      'const absolute = readFileSync(`/work/shared/data/${name}`);',
    ].join('\n');
    expect(flagged(sample)).toEqual([
      { line: 2, reason: expect.stringMatching(/shared folder/) as string },
      { line: 3, reason: expect.stringMatching(/above the repository root/) as string },
      { line: 4, reason: expect.stringMatching(/above the repository root/) as string },
      { line: 5, reason: expect.stringMatching(/shared folder/) as string },
      { line: 6, reason: expect.stringMatching(/shared folder/) as string },
    ]);
  });

  it('lets paths inside the repository and comments through', () => {
    const sample = [
      "const agora = fileURLToPath(new URL('../../../../../bin/agora', import.meta.url));",
      "import { seededRandom } from '../../../test/seeded-random';",
      "const web = join(here, '..', '..');",
      "// the fixtures were copied from '../shared/data' with their provenance",
    ].join('\n');
    expect(flagged(sample)).toEqual([]);
  });
});
