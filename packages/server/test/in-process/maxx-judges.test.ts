import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../../src/config/catalogue';
import { ConfigError, loadConfig } from '../../src/config/config';
import { createMaxxService } from '../../src/services/maxx/create-maxx-service';
import { OPTIMAL, toolModelsYaml } from '../maxx-fixture';
import { testCatalogueYaml } from '../test-arena';
import { type InProcessArena, startInProcessArena } from './harness';
import { honestRoles, maxxWorker, ORIGINALS, outcomesOf, type RoleIds, screenedDuel, verdict } from './maxx-roles';

/**
 * The optimised set's judging rules, in process (docs/datasets.md#judge-panel): one screened duel
 * (a vote and a dislike, two items) on the in-memory store, the role models scripted, and judges
 * that misbehave as LLM judges do. The process-level tests (test/maxx.test.ts) cover the files,
 * the card and the command line.
 */

let harness: InProcessArena;
let roles: RoleIds;
beforeAll(async () => {
  harness = await startInProcessArena({ AGORA_INTEGRITY_MIN_VOTE_S: '0' });
  await screenedDuel(harness);
});
afterAll(() => harness.close());
beforeEach(() => {
  roles = honestRoles(harness);
});

describe('the optimised set’s judges, in process', () => {
  it('keeps the rows an honest judge wins in both orders, and a second worker on the store sends no request', async () => {
    const { service } = maxxWorker(harness, roles);
    expect(await service.run()).toMatchObject({ items: 2, kept: 2, dropped: {}, unfinished: 0 });
    expect(await outcomesOf(harness, service)).toEqual({
      'arena-general': { status: 'kept', reason: null, strength: 'medium' },
      reactions: { status: 'kept', reason: null, strength: 'medium' },
    });
    const [arena] = (await harness.arena.store.maxx.listItems(service.runKey)).filter((record) => record.subset === 'arena-general');
    expect(arena!.row).toMatchObject({ response_optimal: OPTIMAL, messages: [{ role: 'user' }] });
    expect([arena!.row!.rejected, arena!.row!.rejected_2].sort()).toEqual([...ORIGINALS].sort());
    // Each original judged in both orders, each order consistent and won.
    expect(arena!.stats.pairs.map(({ consistent, won }) => ({ consistent, won }))).toEqual([
      { consistent: true, won: true },
      { consistent: true, won: true },
    ]);

    const sent = harness.models.calls.length;
    expect(await maxxWorker(harness, roles).service.run()).toMatchObject({ items: 2, kept: 0, calls: 0, requests: 0 });
    expect(harness.models.calls).toHaveLength(sent);
  });

  it.each([
    ['always "A" (the first reply shown)', 'A', 'inconsistent'],
    ['always "B" (the second reply shown)', 'B', 'inconsistent'],
    ['always a tie', 'tie', 'lost'],
  ] as const)('never keeps a row for a judge that answers %s: the swapped order turns it into no win', async (_name, better, reason) => {
    harness.models.respond(roles.judges[0], () => verdict(better));
    const { service } = maxxWorker(harness, roles);
    expect(await service.run()).toMatchObject({ items: 2, kept: 0, dropped: { [reason]: 2 } });
    const records = await harness.arena.store.maxx.listItems(service.runKey);
    expect(records.every((record) => record.row === null)).toBe(true);
    // A positional judge contradicts itself across the two orders; a tie is consistent, and won nothing.
    const pairs = records.flatMap((record) => record.stats.pairs);
    expect(pairs.every((pair) => !pair.won && pair.consistent === (better === 'tie'))).toBe(true);
    // The judge read each pair in both orders: the optimal reply first, then second.
    expect(harness.models.callsOf(roles.judges[0]).length).toBeGreaterThanOrEqual(4);
  });

  it('lets a panel of three outvote one position-biased judge, at medium strength only', async () => {
    harness.models.respond(roles.judges[1], () => verdict('A'));
    const outvoted = maxxWorker(harness, roles, { judges: 3 }).service;
    expect(await outvoted.run()).toMatchObject({ items: 2, kept: 2 });
    // A majority, not unanimity: two unanimous judges would make the arena row strong.
    expect(await outcomesOf(harness, outvoted)).toEqual({
      'arena-general': { status: 'kept', reason: null, strength: 'medium' },
      reactions: { status: 'kept', reason: null, strength: 'medium' },
    });
    const [arena] = (await harness.arena.store.maxx.listItems(outvoted.runKey)).filter((record) => record.subset === 'arena-general');
    expect(arena!.stats.panels!.map((panel) => panel.judges)).toEqual([
      ['win', 'inconsistent', 'win'],
      ['win', 'inconsistent', 'win'],
    ]);
  });

  it('splits a panel of three with two judges biased to opposite positions: one win of three is no keep', async () => {
    harness.models.respond(roles.judges[1], () => verdict('A'));
    harness.models.respond(roles.judges[2], () => verdict('B'));
    const split = maxxWorker(harness, roles, { judges: 3 }).service;
    expect(await split.run()).toMatchObject({ items: 2, kept: 0, dropped: { 'split panel': 2 } });
  });

  it('makes a row strong only when two judges each win it in both orders', async () => {
    const panel = maxxWorker(harness, roles, { judges: 2 }).service;
    expect(await panel.run()).toMatchObject({ items: 2, kept: 2 });
    // The reactions row's strength is the critic's verdict on the complaint ("partly"), not the panel's.
    expect(await outcomesOf(harness, panel)).toEqual({
      'arena-general': { status: 'kept', reason: null, strength: 'strong' },
      reactions: { status: 'kept', reason: null, strength: 'medium' },
    });
  });

  it('refuses, before any call, a judge that also wrote, reviewed or criticised what it judges; allowed, the card says so', async () => {
    const base = 'http://127.0.0.1:9';
    const catalogue = parseCatalogue(
      testCatalogueYaml(base) + toolModelsYaml(base, [roles.generator, roles.reviewer, roles.critic, ...roles.judges]),
      'models.yaml',
      {},
    );
    const build =
      (judges: string[], allowSelfJudging = false) =>
      () =>
        createMaxxService(
          loadConfig({ DATABASE_URL: 'sqlite::memory:' }),
          harness.arena.store,
          catalogue,
          { generator: roles.generator, reviewer: roles.reviewer, critic: roles.critic, stylist: roles.generator, judges },
          { allowSelfJudging },
        );
    const sent = harness.models.calls.length;
    for (const [judge, role] of [
      [roles.generator, 'generator'],
      [roles.reviewer, 'reviewer'],
      [roles.critic, 'critic'],
    ] as const) {
      expect(build([roles.judges[0], judge])).toThrow(ConfigError);
      expect(build([roles.judges[0], judge])).toThrow(new RegExp(`"${judge}" is also the ${role}; .*prefer their own writing`));
    }
    expect(build([roles.judges[0], roles.judges[0]])).toThrow(/is listed twice/);
    expect(harness.models.calls).toHaveLength(sent);
    expect(build([roles.generator], true)).not.toThrow();

    // Allowed, the rows are kept as the judges say, and the card warns that they are weaker evidence.
    const { service } = maxxWorker(harness, roles, { settings: { selfJudging: true } });
    expect(await service.run()).toMatchObject({ kept: 2 });
    const folder = mkdtempSync(join(tmpdir(), 'agora-in-process-maxx-'));
    try {
      expect(readFileSync((await service.assemble(folder)).cardPath, 'utf8')).toContain('**Self-judging allowed**');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
