import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/dialect';
import { migrateToLatest } from '../../src/db/migrate';
import { createStore } from '../../src/db/unit-of-work';
import { seedInfluenceVotes } from '../influence-seed';
import { runAgora } from '../run-agora';

/** The influence oracle's 620 votes in a SQLite store (influence-seed.ts: the push from one address, a fresh cookie each). */
async function seed(path: string): Promise<void> {
  const db = openDatabase({ kind: 'sqlite', path });
  await migrateToLatest(db);
  await seedInfluenceVotes(createStore(db));
  await db.destroy();
}

interface InfluenceJson {
  models: { model: string; groups: { group: string; points: number; votes: number; votes_on_model: number; alert: boolean }[] }[];
  alerts: { group: string; model: string }[];
}

describe('agora influence on a SQLite store', () => {
  const directory = mkdtempSync(join(tmpdir(), 'agora-influence-'));
  const environment = { DATABASE_URL: `sqlite:${join(directory, 'store.db')}` };
  beforeAll(() => seed(join(directory, 'store.db')), 120_000);
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('by address: the one address behind 40 fresh cookies is first for the model it pushed, with an alert', async () => {
    const outcome = await runAgora(['influence', '--by', 'address', '--model', 'm4', '--top', '3', '--format', 'json'], '', environment);
    expect(outcome.stderr).toBe('');
    const report = JSON.parse(outcome.stdout) as InfluenceJson;
    expect(report.models.map((entry) => entry.model)).toEqual(['m4']);
    expect(report.models[0]!.groups).toHaveLength(3);
    // The integrity rules flag some of the 40 (the board leaves them out); what they miss is still first.
    const first = report.models[0]!.groups[0]!;
    expect(first).toMatchObject({ group: 'push-address', alert: true });
    expect(first.votes).toBeGreaterThanOrEqual(20);
    expect(first.votes_on_model).toBe(first.votes);
    expect(first.points).toBeLessThan(-30);
    expect(report.alerts[0]).toMatchObject({ group: 'push-address', model: 'm4' });
  });

  it('with --include-flagged, all 40 of the push count', async () => {
    const outcome = await runAgora(
      ['influence', '--by', 'address', '--model', 'm4', '--include-flagged', '--format', 'json'],
      '',
      environment,
    );
    const first = (JSON.parse(outcome.stdout) as InfluenceJson).models[0]!.groups[0]!;
    expect(first).toMatchObject({ group: 'push-address', votes: 40, votes_on_model: 40, alert: true });
    expect(first.points).toBeLessThan(-50);
  });

  it('by visitor: the fresh cookies hide the push (no group above one vote of it)', async () => {
    const outcome = await runAgora(['influence', '--model', 'm4', '--format', 'json'], '', environment);
    const report = JSON.parse(outcome.stdout) as InfluenceJson;
    expect(report.models[0]!.groups.every((group) => !group.group.startsWith('push') || group.votes === 1)).toBe(true);
    expect(report.alerts).toEqual([]);
  });

  it('prints a table, and exits 2 with one line on bad input', async () => {
    const table = await runAgora(['influence', '--by', 'address', '--top', '2'], '', environment);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/push-address +(\d+) votes, \1 on it {2}rank 4 → 5 {2}ALERT/);
    for (const [args, message] of [
      [['--by', 'cookie'], /--by takes visitor or address/],
      [['--top', '0'], /--top takes a whole number/],
      [['--format', 'csv'], /--format takes json or table/],
      [['--model', 'nope'], /--model nope: no such model/],
    ] as const) {
      const outcome = await runAgora(['influence', ...args], '', environment);
      expect(outcome.code).toBe(2);
      expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
      expect(outcome.stderr).toMatch(message);
    }
  }, 60_000);
});
