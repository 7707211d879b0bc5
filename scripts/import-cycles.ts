/**
 * `npm run check` runs this: the imports of the packages form no circle across files
 * (docs/ARCHITECTURE.md, "Layers"). madge follows every import of the `.ts` files, type-only ones
 * included: a circle of types is a circle all the same, one that a later value import closes.
 * Svelte components are not read (madge has no parser for them, and they stand at the top: a
 * component imports modules, no module imports a component); the `.svelte.ts` modules are.
 * `packages/server/test/import-cycles.test.ts` runs it on a probe and on the tree.
 */
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { runScript } from './script-checks';

/** Folders read with one TypeScript configuration, whose module resolution (paths such as `$lib`) madge follows. */
export interface ImportRoot {
  /** From the repository root. */
  folders: readonly string[];
  tsConfig: string;
}

/** What the check reads: the server and the two packages it shares with the web app, then the web app. */
export const IMPORT_ROOTS: readonly ImportRoot[] = [
  { folders: ['packages/server/src', 'packages/contract/src', 'packages/privacy/src'], tsConfig: 'packages/server/tsconfig.json' },
  { folders: ['packages/web/src'], tsConfig: 'packages/web/tsconfig.json' },
];

export interface ImportCycles {
  /** Files in the import graph: those read and those they import (paths from the repository root). */
  files: number;
  /** Each circle as madge gives it: `[a, b, c]` is a → b → c → a. */
  cycles: string[][];
  /** Imports that resolved to no file: a circle could run through them unseen, so they fail the check too. */
  unresolved: string[];
}

/** The part of madge's API used here (the package ships no types). */
interface MadgeGraph {
  obj(): Record<string, string[]>;
  circular(): string[][];
  warnings(): { skipped: string[] };
}
type Madge = (path: string[] | Record<string, string[]>, config?: Record<string, unknown>) => Promise<MadgeGraph>;
const madge = createRequire(import.meta.url)('madge') as Madge;

const REPOSITORY = join(import.meta.dirname, '..');

/**
 * The compiler options of a tsconfig, parsed. Handed to madge as a path, they would reach its
 * resolver converted twice, losing the module resolution and the `paths` (`$lib`, the workspaces):
 * those imports would be skipped, and a circle through them missed.
 */
function compilerOptions(tsConfig: string): ts.CompilerOptions {
  const read = ts.readConfigFile(tsConfig, (path) => ts.sys.readFile(path));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, join(tsConfig, '..')).options;
}

/** The import circles among the `.ts` files of `roots` (paths from `repository`). */
export async function findImportCycles(roots: readonly ImportRoot[], repository = REPOSITORY): Promise<ImportCycles> {
  const graph: Record<string, string[]> = {};
  const unresolved = new Set<string>();
  for (const root of roots) {
    const read = await madge(
      root.folders.map((folder) => join(repository, folder)),
      {
        baseDir: repository,
        fileExtensions: ['ts'],
        tsConfig: { options: compilerOptions(join(repository, root.tsConfig)) },
        detectiveOptions: { ts: { skipTypeImports: false }, es6: { skipTypeImports: false } },
      },
    );
    Object.assign(graph, read.obj());
    for (const name of read.warnings().skipped) if (!name.endsWith('.svelte')) unresolved.add(name);
  }
  const cycles = (await madge(graph)).circular();
  return { files: Object.keys(graph).length, cycles, unresolved: [...unresolved].sort() };
}

/** The lines the check prints: each circle and each unresolved import, or one line when there is none. */
export function describeImportCycles({ files, cycles, unresolved }: ImportCycles): string[] {
  if (cycles.length === 0 && unresolved.length === 0) return [`no import cycle in ${files} files`];
  return [
    ...(cycles.length > 0 ? [`${cycles.length} import cycle(s) in ${files} files (each file imports the next):`] : []),
    ...cycles.map((cycle) => `  ${[...cycle, cycle[0]].join(' > ')}`),
    ...(unresolved.length > 0 ? ['imports that resolve to no file (a cycle through them would go unseen):'] : []),
    ...unresolved.map((name) => `  ${name}`),
  ];
}

async function main(): Promise<number> {
  const found = await findImportCycles(IMPORT_ROOTS);
  process.stdout.write(`${describeImportCycles(found).join('\n')}\n`);
  return found.cycles.length === 0 && found.unresolved.length === 0 ? 0 : 1;
}

if (process.argv[1] && relative(process.argv[1], import.meta.filename) === '') runScript('import-cycles', main);
