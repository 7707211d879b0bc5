import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { RANKING_FIXTURES as fixtures } from '../reference-fixtures';

const agora = fileURLToPath(new URL('../../../../bin/agora', import.meta.url));
const parquet = fileURLToPath(new URL('../../src/adapters/vote-files/test-fixtures/comparia-votes.parquet', import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'agora-leaderboard-'));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function leaderboard(...args: string[]): Promise<Outcome> {
  return run(args, {});
}

async function run(args: string[], environment: Record<string, string>): Promise<Outcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(agora, ['leaderboard', ...args], {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
      env: { ...process.env, ...environment },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

const expected = (stem: string) =>
  JSON.parse(readFileSync(`${fixtures}${stem}.expected.json`, 'utf8')) as {
    variants: Record<
      string,
      {
        ratings: Record<string, number>;
        ratings_core_centered?: Record<string, number>;
        se_sandwich: Record<string, number>;
        beta?: Record<string, number>;
      }
    >;
  };

// Each case spawns the real command line (about 1.5 s each).
describe('agora leaderboard', () => {
  it('ranks several vote files together, as one file of all their votes (an export has one per language)', async () => {
    const lines = readFileSync(`${fixtures}votes_1k.jsonl`, 'utf8').trim().split('\n');
    const folder = mkdtempSync(join(tmpdir(), 'agora-leaderboard-parts-'));
    try {
      const parts = [lines.slice(0, 300), lines.slice(300, 700), lines.slice(700)].map((part, index) => {
        const path = join(folder, `part-${index}.jsonl`);
        writeFileSync(path, `${part.join('\n')}\n`);
        return path;
      });
      const whole = await leaderboard('--votes', `${fixtures}votes_1k.jsonl`, '--format', 'json');
      const split = await leaderboard('--votes', ...parts, '--format', 'json');
      expect(split.code, split.stderr).toBe(0);
      expect(JSON.parse(split.stdout)).toEqual(JSON.parse(whole.stdout));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('prints the JSON of docs/api.md#command-line-outputs with the oracle ratings (bt_mle by default)', async () => {
    const outcome = await leaderboard('--votes', `${fixtures}votes_1k.jsonl`, '--format', 'json');
    expect(outcome.code).toBe(0);
    const printed = JSON.parse(outcome.stdout);
    expect(printed).toMatchObject({ n_votes: 1000, n_votes_used: 1000, n_models: 20, variant: 'bt_mle' });
    expect(printed.components).toHaveLength(1);
    const reference = expected('votes_1k').variants.bt_mle!;
    for (const row of printed.models) {
      expect(Object.keys(row)).toEqual(
        expect.arrayContaining([
          'model',
          'name',
          'rating',
          'se',
          'ci_low',
          'ci_high',
          'rank',
          'rank_best',
          'rank_worst',
          'n_battles',
          'wins',
          'losses',
          'ties',
          'both_bad',
          'win_rate',
          'provisional',
        ]),
      );
      expect(Math.abs(row.rating - reference.ratings[row.model]!)).toBeLessThanOrEqual(0.01);
      expect(Math.abs(row.se / reference.se_sandwich[row.model]! - 1)).toBeLessThanOrEqual(1e-4);
      expect(row.ci_low).toBeCloseTo(row.rating - 1.959964 * row.se, 4);
    }
    expect(printed.models.map((row: { rank: number }) => row.rank)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('fits style control with --style and reports β', async () => {
    const outcome = await leaderboard('--votes', `${fixtures}votes_1k.jsonl`, '--style', '--format', 'json');
    expect(outcome.code).toBe(0);
    const printed = JSON.parse(outcome.stdout);
    const reference = expected('votes_1k').variants.style_fastchat!;
    expect(printed.variant).toBe('style_fastchat');
    for (const [feature, beta] of Object.entries(reference.beta!)) expect(Math.abs(printed.style.beta[feature] - beta)).toBeLessThan(1e-5);
    for (const row of printed.models) expect(Math.abs(row.rating - reference.ratings[row.model]!)).toBeLessThanOrEqual(0.01);
  });

  it('flags provisional models and displays core-centred bt_ridge ratings when the MLE does not exist', async () => {
    const outcome = await leaderboard('--votes', `${fixtures}adv_undefeated_winless.jsonl`, '--format', 'json');
    const printed = JSON.parse(outcome.stdout);
    expect(printed.variant).toBe('bt_ridge');
    expect(printed.provisional_models).toEqual(['undefeated', 'winless']);
    const reference = expected('adv_undefeated_winless').variants.bt_ridge!.ratings_core_centered!;
    for (const row of printed.models) {
      expect(Math.abs(row.rating - reference[row.model]!)).toBeLessThanOrEqual(row.provisional ? 0.05 : 0.01);
      if (row.provisional) expect(row).toMatchObject({ rank: null, rank_best: null, rank_worst: null });
    }
  });

  it('writes CSV and a readable table', async () => {
    const csv = await leaderboard('--votes', `${fixtures}wiki_example.jsonl`, '--format', 'csv');
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^model,name,rating,se,ci_low,ci_high,rank,rank_best,rank_worst,n_battles,wins,losses,ties,both_bad,win_rate,provisional/,
    );
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/^D,D,1142\.4391/);
    const table = await leaderboard('--votes', `${fixtures}wiki_example.jsonl`);
    expect(table.stdout).toMatch(/variant bt_mle · 22 votes/);
    expect(table.stdout).toMatch(/\n\s+1\s+D\s+1142\.4/);
  });

  it('reads gzip and Parquet files, and bootstraps reproducibly with a seed', async () => {
    const zipped = join(directory, 'votes.jsonl.gz');
    writeFileSync(zipped, gzipSync(readFileSync(`${fixtures}adv_base8.jsonl`)));
    const first = await leaderboard('--votes', zipped, '--bootstrap', '50', '--seed', '7', '--format', 'json');
    const again = await leaderboard('--votes', zipped, '--bootstrap', '50', '--seed', '7', '--format', 'json');
    expect(first.code).toBe(0);
    const printed = JSON.parse(first.stdout);
    expect(printed).toMatchObject({ uncertainty: 'bootstrap', bootstrap: { rounds: 50 }, input: { gzip: true } });
    expect(first.stdout).toBe(again.stdout);
    const fromParquet = JSON.parse((await leaderboard('--votes', parquet, '--format', 'json')).stdout);
    expect(fromParquet).toMatchObject({
      n_votes: 6,
      input: { format: 'comparia', container: 'parquet', skipped: { duplicate: 1, no_outcome: 1 } },
    });
  });

  it('exits 2 on an unknown winner, naming the file and the line', async () => {
    const path = join(directory, 'bad-winner.jsonl');
    writeFileSync(
      path,
      [
        '{"model_a":"x","model_b":"y","winner":"model_a"}',
        '{"model_a":"y","model_b":"x","winner":"tie"}',
        '{"model_a":"x","model_b":"y","winner":"draw"}',
      ].join('\n'),
    );
    const outcome = await leaderboard('--votes', path);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(path);
    expect(outcome.stderr).toMatch(/line 3: unknown winner "draw"/);
    expect(outcome.stdout).toBe('');
  });

  it.each([
    [['--votes', '/nonexistent/votes.jsonl'], /cannot open/],
    [['--votes', 'x.jsonl', '--variant', 'elo'], /--variant takes/],
    [['--votes', 'x.jsonl', '--format', 'xml'], /--format takes json, csv or table/],
    [['--votes', 'x.jsonl', '--bootstrap', '-3'], /--bootstrap/],
    [['--votes', 'x.jsonl', '--style', '--variant', 'bt_mle'], /--style conflicts/],
    [['--votes', 'x.jsonl', '--anchor', 'nope'], /--anchor takes MODEL=RATING/],
    [['--votes', 'x.jsonl', '--bogus'], /unknown option/],
  ])('exits 2 with a clear message for %j', async (args, message) => {
    const outcome = await leaderboard(...args);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(message);
  });

  it('reads the arena store when --votes is absent', async () => {
    const { openDatabase } = await import('../../src/db/dialect');
    const { migrateToLatest } = await import('../../src/db/migrate');
    const { createStore } = await import('../../src/db/unit-of-work');
    const path = join(directory, 'store.db');
    const db = openDatabase({ kind: 'sqlite', path });
    await migrateToLatest(db);
    const store = createStore(db);
    const style = { len: 100, headers: 0, lists: 1, bold: 0 };
    const pairs = [
      ['alpha', 'beta', 'a'],
      ['beta', 'gamma', 'a'],
      ['gamma', 'alpha', 'b'],
      ['alpha', 'beta', 'tie'],
      ['beta', 'alpha', 'b'],
      ['gamma', 'beta', 'b'],
    ];
    for (const [index, [modelA, modelB, choice]] of pairs.entries()) {
      const duelId = `duel-${index}-aaaaaaaaaaaa`;
      await store.duels.createWithFirstTurn(
        {
          id: duelId,
          visitorHash: 'v',
          mode: 'random',
          modelA: modelA!,
          modelB: modelB!,
          chosenModels: null,
          locale: 'fr',
          status: 'ready',
          turnCount: 1,
          createdAt: `2026-11-30T00:00:0${index}.000Z`,
        },
        'p',
      );
      await store.feedback.insertVote({
        duelId,
        choice: choice!,
        modelA: modelA!,
        modelB: modelB!,
        tagsA: [],
        tagsB: [],
        commentA: null,
        commentB: null,
        identityLeak: index === 5,
        mode: 'random',
        locale: 'fr',
        createdAt: `2026-11-30T00:00:0${index}.000Z`,
        ranking: { a: { style, outputTokens: 100, energyWh: null }, b: { style, outputTokens: 100, energyWh: null } },
      });
    }
    await db.destroy();
    const outcome = await run(['--format', 'json'], { DATABASE_URL: `sqlite:${path}` });
    expect(outcome.code).toBe(0);
    const board = JSON.parse(outcome.stdout) as { n_votes_used: number; models: { model: string }[] };
    // The identity-leak vote is left out.
    expect(board.n_votes_used).toBe(5);
    expect(board.models.map((row) => row.model).sort()).toEqual(['alpha', 'beta', 'gamma']);
    const badStore = await run([], { DATABASE_URL: 'mysql://nowhere' });
    expect(badStore.code).toBe(2);
    expect(badStore.stderr).toMatch(/DATABASE_URL/);
  });

  it('exits 2 when style control is asked of votes without style counts', async () => {
    const outcome = await leaderboard('--votes', `${fixtures}wiki_example.jsonl`, '--style');
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/style counts/);
  });
});
