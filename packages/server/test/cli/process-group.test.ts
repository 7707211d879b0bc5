import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RANKING_FIXTURES as fixtures } from '../reference-fixtures';
import { runAgoraInItsGroup } from '../run-agora';
import { testCatalogueYaml } from '../test-arena';

/**
 * A command leaves nothing running when it exits: no child process (a transpiler's service, a tool)
 * in its process group, whether it used worker threads or not. A left-behind process holds memory
 * and, in a cron job, piles up.
 */
describe('agora commands leave no process behind', () => {
  const folder = mkdtempSync(join(tmpdir(), 'agora-process-group-'));
  // A cold transform cache, as after an upgrade: the loader starts its transform service in each thread.
  const cold = { TSX_DISABLE_CACHE: '1' };
  const environment = { ...cold, DATABASE_URL: `sqlite:${join(folder, 'agora.db')}`, AGORA_MODELS: join(folder, 'models.yaml') };
  writeFileSync(environment.AGORA_MODELS, testCatalogueYaml('http://127.0.0.1:9'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('agora leaderboard, bootstrapping a vote file', async () => {
    const run = await runAgoraInItsGroup(['leaderboard', '--votes', `${fixtures}votes_1k.jsonl`, '--bootstrap', '20', '--seed', '7'], cold);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.leftBehind).toEqual([]);
  });

  it('agora leaderboard, scanning a 65 MB vote file', async () => {
    const big = join(folder, 'big.jsonl');
    const rows = ['model_a', 'model_b', 'tie'].map(
      (winner, index) =>
        `{"model_a":"m${index}","model_b":"m${(index + 1) % 3}","winner":"${winner}","len_a":5,"len_b":7,"headers_a":0,"headers_b":1,"lists_a":0,"lists_b":0,"bold_a":2,"bold_b":0}\n`,
    );
    // read in many blocks by the byte scanner (worker threads start only above 1 GB)
    writeFileSync(big, rows.join('').repeat(Math.ceil((65 << 20) / rows.join('').length)));
    const run = await runAgoraInItsGroup(['leaderboard', '--votes', big, '--format', 'json'], cold);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.leftBehind).toEqual([]);
  });

  it('agora postprocess, on worker threads, then agora export, on worker threads, of the same store', async () => {
    const screened = await runAgoraInItsGroup(['postprocess', '--no-model', '--threads', '2'], environment);
    expect(screened.code, screened.stderr).toBe(0);
    expect(screened.leftBehind).toEqual([]);
    const exported = await runAgoraInItsGroup(['export', '--out', join(folder, 'export'), '--threads'], environment);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.leftBehind).toEqual([]);
  });

  it('agora leaderboard, stopped on a bad file (exit 2)', async () => {
    const bad = join(folder, 'bad.jsonl');
    writeFileSync(bad, '{"model_a":"x","model_b":"y","winner":"nobody"}\n');
    const run = await runAgoraInItsGroup(['leaderboard', '--votes', bad], cold);
    expect(run.code).toBe(2);
    expect(run.leftBehind).toEqual([]);
  });
});
