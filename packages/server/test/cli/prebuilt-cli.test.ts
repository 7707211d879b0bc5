import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RANKING_FIXTURES as fixtures } from '../reference-fixtures';
import { runAgora } from '../run-agora';

const buildCli = fileURLToPath(new URL('../../../../scripts/build-cli.mjs', import.meta.url));
// inside the repository (gitignored): the packages left out of the bundle are found from node_modules above it
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

/** Runs the prebuilt command line of `folder` with bare node, as bin/agora does once it is built. */
function runPrebuilt(folder: string, args: string[], input: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [join(folder, 'agora.mjs'), ...args], { encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    child.stdin?.end(input);
  });
}

const root = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The source files whose code a run of the prebuilt command line loaded, relative to the repository:
 * node's own log of the modules it loads (NODE_DEBUG=esm), each bundle file mapped back to its
 * sources by its source map.
 */
function loadedSources(folder: string, args: string[]): string[] {
  const run = spawnSync(process.execPath, [join(folder, 'agora.mjs'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, NODE_DEBUG: 'esm' },
  });
  expect(run.status, run.stderr.slice(-2000)).toBe(0);
  const files = [...run.stderr.matchAll(/Translating StandardModule (file:\S+)/g)].map((match) => fileURLToPath(match[1]!));
  return files.flatMap((file) => {
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
    return map.sources.map((source) => relative(root, resolve(dirname(file), source)));
  });
}

/**
 * The prebuilt command line (`npm run build:cli`, docs/cli.md) prints what the TypeScript sources
 * print: the same board, the same languages (the language detector's native module is found from
 * the bundle), the same error and exit code. Built into a folder of its own beside the one bin/agora runs,
 * so that it does not touch it.
 */
describe('the prebuilt command line', () => {
  mkdirSync(dist, { recursive: true });
  const folder = mkdtempSync(join(dist, 'test-'));
  const sources = { AGORA_CLI_SOURCES: '1' };
  beforeAll(() => {
    execFileSync(process.execPath, [buildCli, folder], { stdio: 'inherit' });
  }, 120_000);
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('ranks a vote file as the sources do, bootstrap included', async () => {
    const args = ['leaderboard', '--votes', `${fixtures}votes_1k.jsonl`, '--bootstrap', '20', '--seed', '7', '--format', 'json'];
    const [prebuilt, fromSources] = await Promise.all([runPrebuilt(folder, args, ''), runAgora(args, '', sources)]);
    expect(prebuilt.stderr).toBe('');
    expect(prebuilt.code).toBe(0);
    expect(JSON.parse(prebuilt.stdout)).toEqual(JSON.parse(fromSources.stdout));
    expect((JSON.parse(prebuilt.stdout) as { models: unknown[] }).models.length).toBeGreaterThan(2);
  });

  it('detects languages as the sources do', async () => {
    const input = 'Bonjour, comment allez-vous aujourd’hui ?\nHow are you doing today, my friend?\nHej, hvordan har du det i dag?\n';
    const [prebuilt, fromSources] = await Promise.all([runPrebuilt(folder, ['lang'], input), runAgora(['lang'], input, sources)]);
    expect(prebuilt.code, prebuilt.stderr).toBe(0);
    expect(prebuilt.stdout).toBe(fromSources.stdout);
    expect(prebuilt.stdout.split('\n').slice(0, 2)).toEqual(['fr', 'en']);
  });

  it('stops on a bad flag with the same message and exit code 2', async () => {
    const args = ['leaderboard', '--votes', `${fixtures}votes_1k.jsonl`, '--format', 'xml'];
    const [prebuilt, fromSources] = await Promise.all([runPrebuilt(folder, args, ''), runAgora(args, '', sources)]);
    expect(prebuilt.code).toBe(2);
    expect(prebuilt.stderr).toBe(fromSources.stderr);
  });

  it('loads, for agora leaderboard on a vote file, only what ranking needs', () => {
    const loaded = loadedSources(folder, ['leaderboard', '--votes', `${fixtures}votes_1k.jsonl`, '--format', 'json']);
    // what it must load, so that an empty list (node's log changed) fails rather than passes
    expect(loaded).toContain('packages/server/src/cli/commands/compute-leaderboard.ts');
    expect(loaded).toContain('packages/server/src/adapters/vote-files/usual-vote-line.ts');
    // the other commands, the store, the server, the configuration's schemas and YAML reader, the
    // Parquet reader (a JSONL file), zod's full API and locales (the flags use zod/mini)
    const unwanted =
      /cli\/commands\/(?!compute-leaderboard)|src\/(composition|db|http|jobs|main\.ts|config\/config\.ts)|packages\/contract|node_modules\/(yaml|hyparquet|pino|kysely|hono)|zod\/v4\/(classic|locales)/;
    expect(loaded.filter((source) => unwanted.test(source))).toEqual([]);
  });
});
