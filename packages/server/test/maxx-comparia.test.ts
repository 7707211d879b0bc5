import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeUpstream } from './fake-upstream/fake-upstream';
import { errorLines, roleFlags, rolesOf, scriptRoles, subsetRows, toolModelsYaml } from './maxx-fixture';
import { runAgora } from './run-agora';
import { databaseUrl } from './store-dump';
import { testCatalogueYaml, type TestArena } from './test-arena';
import { DIALECTS, type TestStore } from './test-db';

/**
 * The optimised set on compar:IA's data, end to end through the command line: the project's own
 * compar:IA-shaped files (test/fixtures/comparia), with the votes and reactions carrying no text as
 * compar:IA's files may, and its per-response arena data, imported with `agora import comparia`, then `agora maxx` against role
 * models played by the fake upstream. Every subset gets rows, with the source rows' ids.
 */

const fixtures = fileURLToPath(new URL('./fixtures/comparia/', import.meta.url));
const rowsOf = (name: string) =>
  readFileSync(join(fixtures, `${name}.jsonl`), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const ROLES = rolesOf('-comparia');

describe.each(DIALECTS)('agora maxx on imported compar:IA data ($name)', (dialect) => {
  let fake: FakeUpstream;
  let store: TestStore;
  let folder: string;
  let environment: Record<string, string>;

  beforeAll(async () => {
    fake = await new FakeUpstream().start(0);
    fake.defaultBehaviour = { tokensPerSecond: 0 };
    scriptRoles({ fake } as TestArena, ROLES, 0);
    store = await dialect.create();
    folder = mkdtempSync(join(tmpdir(), 'agora-maxx-comparia-'));
    writeFileSync(join(folder, 'models.yaml'), testCatalogueYaml(fake.baseUrl) + toolModelsYaml(fake.baseUrl, Object.values(ROLES)));
    environment = { DATABASE_URL: databaseUrl(store.location), AGORA_MODELS: join(folder, 'models.yaml') };
  });
  afterAll(async () => {
    await fake.stop();
    await store.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('imports votes and reactions without text, keeps rows in every subset, each with its source row’s id', async () => {
    const withoutText = ({ conversation_a: _a, conversation_b: _b, ...row }: Record<string, unknown>) => row;
    // The pair p3 was found both bad (compar:IA's `both_bad`), so that arena-both_bad has a source row.
    const votes = rowsOf('votes').map((row) => withoutText(row.conversation_pair_id === 'p3' ? { ...row, both_bad: true } : row));
    const reactions = rowsOf('reactions').map(withoutText);
    const file = (name: string, rows: Record<string, unknown>[]) => {
      const path = join(folder, `${name}.jsonl`);
      writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
      return path;
    };
    const imported = await runAgora(
      [
        'import',
        'comparia',
        '--conversations',
        join(fixtures, 'conversations.jsonl'),
        '--votes',
        file('votes', votes),
        '--reactions',
        file('reactions', reactions),
        '--arena',
        join(fixtures, 'arena.jsonl'),
      ],
      '',
      environment,
    );
    expect(errorLines(imported.stderr)).toBe('');
    expect(imported.code).toBe(0);
    // Not trusted as screened: Agora's own screening runs on the imported conversations first.
    const screened = await runAgora(['postprocess', '--no-model'], '', environment);
    expect(errorLines(screened.stderr)).toBe('');
    expect(screened.code).toBe(0);

    const out = join(folder, 'set');
    const run = await runAgora(['maxx', '--out', out, ...roleFlags(ROLES)], '', environment);
    expect(errorLines(run.stderr)).toBe('');
    expect(run.code).toBe(0);
    const rows = Object.fromEntries(['arena-general', 'arena-both_bad', 'reactions'].map((subset) => [subset, subsetRows(out, subset)]));
    for (const [subset, kept] of Object.entries(rows)) expect(kept.length, subset).toBeGreaterThan(0);
    // Provenance: the conversation pair of a vote, and a reaction's own id in the reactions file.
    const pairs = new Set([
      ...votes.map((row) => `arena:${String(row.conversation_pair_id)}`),
      // The per-response arena data: a verdict's row id, as the reference set gives it.
      ...rowsOf('arena').map((row) => `arena:${String(row.response_id)}`),
    ]);
    for (const row of [...rows['arena-general']!, ...rows['arena-both_bad']!]) expect(pairs.has(String(row.id)), String(row.id)).toBe(true);
    const reactionIds = new Set(reactions.map((row) => `reactions:${String(row.id)}`));
    for (const row of rows.reactions!) expect(reactionIds.has(String(row.id)), String(row.id)).toBe(true);
    expect(rows['arena-both_bad']!.map((row) => row.id).sort()).toEqual(['arena:p3', 'arena:resp-c1-1']);
    expect(rows['arena-general']!.map((row) => row.id)).toEqual(expect.arrayContaining(['arena:resp-c1-0', 'arena:resp-c2-0']));
  }, 120_000);
});
