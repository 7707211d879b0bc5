/**
 * A ground rule of the suite: no test reads a file outside the repository, so a clone with nothing
 * beside it passes. This finds the string literals of a source file (comments aside) that point out
 * of the repository: a relative path that climbs above its root from the file's folder (`new
 * URL('../…', import.meta.url)`, an import, or `'..'` arguments joined to the file's folder), a
 * `shared` folder beside the repository reached through `..` or as `/work/shared`, and an absolute
 * path into the repository's parent folder.
 * `packages/server/test/in-process/repository-bounds.test.ts` runs it over the code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export interface OutsideReference {
  /** The file's path from the repository root, with `/` separators. */
  file: string;
  line: number;
  text: string;
  reason: string;
}

/** The folders scanned, from the repository root. */
export const SCANNED_FOLDERS = ['packages', 'e2e', 'scripts'] as const;

const SKIPPED_FOLDERS = new Set(['node_modules', '.svelte-kit', 'build', 'dist', 'test-results', 'bench-results']);

/** A `shared` folder beside the repository: `../shared`, `../../shared/data/…`, `/work/shared`. */
const SHARED_BESIDE = /(^|[^\w.-])(\.\.[\\/]+)+shared([\\/]|$)|\/work\/shared([\\/]|$)/;

/** A first argument that is the file's own folder or URL: `join(import.meta.dirname, '..', …)`. */
const FILE_BASE = /^(import\.meta\.(dirname|url)|__dirname|dirname\(fileURLToPath\(import\.meta\.url\)\))$/;

const isInside = (root: string, path: string): boolean => path === root || path.startsWith(root + sep);

/** Why a path (a literal, or join arguments joined with `/`) leads out of the repository, or null. */
function outsideReason(value: string, folder: string, root: string): string | null {
  if (SHARED_BESIDE.test(value)) return 'names the shared folder beside the repository';
  if (value === '..' || value.startsWith('../')) {
    const target = resolve(folder, value);
    if (!isInside(root, target)) return `resolves to ${target}, above the repository root`;
  }
  if (value.startsWith(dirname(root) + sep) && !isInside(root, value)) return 'absolute path beside the repository';
  return null;
}

/** The text of a string literal or of a template's literal parts, or null for any other node. */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('${}');
  return null;
}

/** The references of one file's source text that point out of the repository (`file` is its path). */
export function findOutsideReferences(file: string, text: string, root: string): OutsideReference[] {
  const repositoryRoot = resolve(root);
  const folder = dirname(resolve(file));
  const name = relative(repositoryRoot, resolve(file)).split(sep).join('/');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lines = text.split('\n');
  const found = new Map<number, OutsideReference>();
  const report = (node: ts.Node, reason: string): void => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    if (!found.has(line)) found.set(line, { file: name, line, text: lines[line - 1]!.trim(), reason });
  };
  const visit = (node: ts.Node): void => {
    const value = literalText(node);
    if (value !== null) {
      const reason = outsideReason(value, folder, repositoryRoot);
      if (reason) report(node, reason);
    }
    if (ts.isCallExpression(node) && node.arguments.length > 1) {
      // `join(base, '..', '..', 'shared')`: the literal arguments read as one path after the base.
      const [base, ...rest] = node.arguments;
      const parts = rest.map(literalText);
      if (parts.every((part) => part !== null)) {
        const path = parts.join('/');
        const reason = FILE_BASE.test(base!.getText(source))
          ? outsideReason(path, folder, repositoryRoot)
          : SHARED_BESIDE.test(path)
            ? 'names the shared folder beside the repository'
            : null;
        if (reason) report(node, reason);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found.values()].sort((a, b) => a.line - b.line);
}

/** Every `*.ts` file under the scanned folders (absolute paths), without dependencies or build output. */
export function listSourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(path);
      } else if (entry.isFile() && entry.name.endsWith('.ts')) files.push(path);
    }
  };
  for (const folder of SCANNED_FOLDERS) walk(join(resolve(root), folder));
  return files.sort();
}

/** Scans the repository: how many files were read, and what in them points out of it. */
export function scanRepository(root: string, skip: readonly string[] = []): { files: number; references: OutsideReference[] } {
  const skipped = new Set(skip.map((path) => resolve(path)));
  const files = listSourceFiles(root).filter((file) => !skipped.has(file));
  const references = files.flatMap((file) => findOutsideReferences(file, readFileSync(file, 'utf8'), root));
  return { files: files.length, references };
}
