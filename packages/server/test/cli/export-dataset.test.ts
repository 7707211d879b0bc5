import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/dialect';
import { migrateToLatest } from '../../src/db/migrate';
import { createStore } from '../../src/db/unit-of-work';
import { runAgora } from '../run-agora';
import { testCatalogueYaml } from '../test-arena';
import { subsetFiles } from '../export-files';

describe('agora export', () => {
  const folder = mkdtempSync(join(tmpdir(), 'agora-export-cli-'));
  const environment = { DATABASE_URL: `sqlite:${join(folder, 'agora.db')}`, AGORA_MODELS: join(folder, 'models.yaml') };

  beforeAll(async () => {
    writeFileSync(environment.AGORA_MODELS, testCatalogueYaml('http://127.0.0.1:9'));
    const db = openDatabase({ kind: 'sqlite', path: join(folder, 'agora.db') });
    await migrateToLatest(db);
    const store = createStore(db);
    for (const [index, choice] of ['a', 'b', 'tie'].entries()) {
      const id = `duel-${index}`;
      const at = `2026-11-0${index + 1}T10:00:00.000Z`;
      await store.duels.createWithFirstTurn(
        {
          id,
          visitorHash: `visitor-${index}`,
          mode: 'random',
          modelA: 'zephyrine-405b',
          modelB: 'brontal-120b',
          chosenModels: null,
          locale: 'fr',
          status: 'streaming',
          turnCount: 1,
          createdAt: at,
        },
        `question ${index}`,
      );
      const side = (name: 'a' | 'b', modelId: string) => ({
        turn: 1,
        side: name,
        modelId,
        text: `answer ${name}`,
        reasoning: null,
        outputTokens: 10,
        outputTokensSource: 'provider' as const,
        status: 'complete' as const,
        errorKind: null,
        finishReason: 'stop',
        ttftMs: 1,
        durationMs: 2,
        identityLeak: false,
        servedModel: null,
        servedModelMismatch: false,
        style: null,
      });
      await store.duels.finishTurn({
        duelId: id,
        turn: 1,
        status: 'complete',
        errorCode: null,
        framesJson: '[]',
        endedAt: at,
        sides: [side('a', 'zephyrine-405b'), side('b', 'brontal-120b')],
        errors: [],
        duelStatus: 'ready',
      });
      await store.annotations.save({
        duelId: id,
        status: 'done',
        attempts: 1,
        lastError: null,
        nextAttemptAt: null,
        turnsAnnotated: 1,
        languages: ['fr'],
        messageLanguages: null,
        piiRuleKinds: [],
        piiModelKinds: null,
        containsPii: false,
        modelStatus: 'not_configured',
        modelId: null,
        categories: [],
        keywords: [],
        shortSummary: null,
        annotatedAt: at,
        updatedAt: at,
      });
      await store.feedback.insertVote({
        duelId: id,
        choice,
        modelA: 'zephyrine-405b',
        modelB: 'brontal-120b',
        tagsA: [],
        tagsB: [],
        commentA: null,
        commentB: null,
        identityLeak: false,
        mode: 'random',
        locale: 'fr',
        createdAt: at,
      });
    }
    await store.close();
  });

  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('writes the datasets and the card, one line per file on stdout; the votes rank with agora leaderboard', async () => {
    const out = join(folder, 'out');
    const result = await runAgora(['export', '--out', out, '--datasets', 'votes,dpo', '--to', '2026-11-02'], '', environment);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').filter(Boolean)).toEqual([
      `${out}/public/votes/fr/train-00000.parquet\t2 rows`,
      `${out}/public/votes/fr/train.jsonl\t2 rows`,
      `${out}/public/dpo/fr/train-00000.parquet\t2 rows`,
      `${out}/public/dpo/fr/train.jsonl\t2 rows`,
      `${out}/gated/votes/fr/train-00000.parquet\t2 rows`,
      `${out}/gated/votes/fr/train.jsonl\t2 rows`,
      `${out}/public/README.md\tdataset card, public dataset (2 conversations read)`,
      `${out}/gated/README.md\tdataset card, gated dataset (publish as its own repository, access on request) (2 conversations read)`,
    ]);
    expect(readFileSync(join(out, 'gated', 'README.md'), 'utf8')).toContain('| `votes` | 2 |');
    expect(readFileSync(join(out, 'public', 'README.md'), 'utf8')).toContain('| `votes` | 2 |');
    expect(readFileSync(join(out, 'public', 'README.md'), 'utf8')).toContain('| `dpo` | 2 |');
    // The public votes rank as the gated ones do: the ranking needs no visitor or time.
    const ranked = await runAgora(
      ['leaderboard', '--votes', ...subsetFiles(out, 'votes', 'parquet', 'public'), '--format', 'json'],
      '',
      environment,
    );
    expect(ranked.code).toBe(0);
    expect(JSON.parse(ranked.stdout)).toMatchObject({ n_votes: 2, n_models: 2 });
  });

  it.each([
    [['--format', 'xml'], /^agora: --format: unknown "xml" in "xml" \(takes parquet, jsonl\)\n$/],
    [['--datasets', 'votes,,dpo'], /^agora: --datasets: an empty item/],
    [['--datasets', 'chats'], /^agora: --datasets: unknown "chats"/],
    [['--min-pref-strength', 'huge'], /^agora: --min-pref-strength takes weak, medium, strong\n$/],
    [['--from', '30/11/2026'], /^agora: --from takes a date/],
    [['--from', '2026-11-03', '--to', '2026-11-01'], /^agora: --from must come before --to\n$/],
    [['--frobnicate'], /^agora: unknown option '--frobnicate'/],
  ])('refuses %j with exit code 2 and names the flag', async (args, message) => {
    const result = await runAgora(['export', '--out', join(folder, 'refused'), ...args], '', environment);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('requires --out', async () => {
    const result = await runAgora(['export'], '', environment);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--out/);
  });
});
