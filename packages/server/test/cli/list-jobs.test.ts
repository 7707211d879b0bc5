import { describe, expect, it } from 'vitest';
import { runAgora as run } from '../run-agora';

describe('agora jobs', () => {
  it('lists each background job with what it does, when it runs and where, then who listens to each event', async () => {
    const outcome = await run(['jobs'], '', {
      AGORA_INSTANCES: 'several',
      DATABASE_URL: 'postgres://agora@127.0.0.1:9/agora',
      AGORA_RETENTION_DAYS: '30',
    });
    expect(outcome).toMatchObject({ code: 0, stderr: '' });
    const names = [...outcome.stdout.matchAll(/^(\S+)(?: \(off: .*\))?$/gm)].map((match) => match[1]);
    expect(names).toEqual([
      'interrupted-turns',
      'retention',
      'console-retention',
      'model-catalogue-sync',
      'leaderboard-refresh',
      'leaderboard-snapshot',
      'postprocess',
      'publication',
      'events',
    ]);
    expect(outcome.stdout).toContain('more than 30 days ago');
    expect(outcome.stdout).toContain('one instance at a time (lease "leaderboard")');
    expect(outcome.stdout).toMatch(/^ {2}vote\.recorded → leaderboard-refresh, postprocess$/m);
    // On PostgreSQL the kept columns' snapshot is a table, written by the leaderboard lease's holder.
    expect(outcome.stdout).toMatch(/^leaderboard-snapshot$/m);
    expect(outcome.stdout).toContain("store's ranking_columns_parts table");
  });

  it('marks a job turned off and why, and no event starts it; --json prints one object per job', async () => {
    const outcome = await run(['jobs', '--json'], '', { AGORA_POSTPROCESS: 'false', AGORA_RETENTION_DAYS: '0' });
    expect(outcome).toMatchObject({ code: 0, stderr: '' });
    const plans = outcome.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string; off: string | null });
    expect(plans.map((plan) => [plan.name, plan.off])).toEqual([
      ['interrupted-turns', null],
      ['retention', 'AGORA_RETENTION_DAYS is 0 (traces are kept)'],
      ['console-retention', null],
      ['model-catalogue-sync', null],
      ['leaderboard-refresh', null],
      ['leaderboard-snapshot', null],
      ['postprocess', 'AGORA_POSTPROCESS is off'],
      ['publication', null],
    ]);
    const text = await run(['jobs'], '', { AGORA_POSTPROCESS: 'false' });
    expect(text.stdout).toMatch(/^postprocess \(off: AGORA_POSTPROCESS is off\)$/m);
    expect(text.stdout).toMatch(/^ {2}vote\.recorded → leaderboard-refresh$/m);
  });

  it('says which setting is wrong in one line, exit 2', async () => {
    const outcome = await run(['jobs'], '', { AGORA_RETENTION_DAYS: 'soon' });
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toMatch(/^agora: .*AGORA_RETENTION_DAYS.*\n$/);
  });
});
