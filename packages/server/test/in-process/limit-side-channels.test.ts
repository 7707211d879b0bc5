import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { inlineRankingComputer } from '../../src/adapters/ranking-worker/ranking-computer';
import { parseCatalogue } from '../../src/config/catalogue';
import { loadConfig } from '../../src/config/config';
import { createArena } from '../../src/main';
import {
  COSTLY_MODEL,
  PROBE_SCENARIOS,
  type ProbeScenario,
  type ProbeTarget,
  SteeredRuntime,
  runProbe,
  probeCatalogueYaml,
} from '../limit-probes';
import { ScriptedModels, Visitor } from './harness';

/**
 * No limit tells who is in a duel (issue 31, point 2), in process: each probe of test/limit-probes.ts
 * runs on an arena of its own (in process every request comes from one address), once where the
 * hidden duel holds the costly model and once where it does not, and the visitor must see the same.
 */

/** An in-memory arena whose catalogue marks one model costly, with scripted models and steered draws. */
async function probeTarget(
  environment: Record<string, string>,
): Promise<ProbeTarget & { chargedOf(duelId: string): Promise<{ charged: boolean }>; close(): Promise<void> }> {
  const settings = { DATABASE_URL: 'sqlite::memory:', AGORA_LOG_LEVEL: 'silent', AGORA_POSTPROCESS: 'false', ...environment };
  const runtime = new SteeredRuntime();
  const arena = await createArena(loadConfig(settings), settings, {
    catalogue: parseCatalogue(probeCatalogueYaml('http://127.0.0.1:9'), 'test-models.yaml', settings),
    logger: pino({ level: 'silent' }),
    runtime,
    modelClient: new ScriptedModels().clientOf,
    rankingComputer: inlineRankingComputer,
  });
  await arena.leaderboardRefresh.idle();
  return {
    visitor: () => new Visitor(arena),
    steer: (values) => runtime.steer(values),
    modelsOf: async (duelId) => {
      const duel = (await arena.store.duels.findById(duelId))!;
      return [duel.modelA, duel.modelB];
    },
    chargedOf: async (duelId) => ({ charged: (await arena.store.duels.findById(duelId))!.chargesCostlyBudget === true }),
    close: () => arena.close(),
  };
}

async function probeOnce(scenario: ProbeScenario, holdsCostly: boolean) {
  const target = await probeTarget(scenario.environment);
  try {
    return await runProbe(target, scenario, holdsCostly);
  } finally {
    await target.close();
  }
}

describe('no limit tells who is in a duel, in process', () => {
  it.each(PROBE_SCENARIOS.map((scenario) => [scenario.limit, scenario] as const))('%s', async (_limit, scenario) => {
    const holding = await probeOnce(scenario, true);
    const without = await probeOnce(scenario, false);
    expect(holding.hiddenModels).toContain(COSTLY_MODEL);
    expect(without.hiddenModels).not.toContain(COSTLY_MODEL);
    // The probe reached its limit as designed: otherwise it would show nothing either way.
    expect(holding.observed.map((answer) => answer.status)).toEqual(scenario.statuses);
    expect(without.observed).toEqual(holding.observed);
  });
});

describe('the budget for costly models, spent by two requests at once', () => {
  const environment = { AGORA_LIMIT_EXPENSIVE_CHARS_PER_HOUR: '1500', AGORA_LIMIT_EXPENSIVE_CHARS_PER_HOUR_PER_ADDRESS: '0' };

  it('the second random duel is drawn among the other models, uncharged; the second naming the costly model gets 429', async () => {
    const target = await probeTarget(environment);
    try {
      // Any duel route gives a visitor its cookie: the two requests below come from one visitor.
      const visitor = target.visitor();
      await visitor.request('GET', '/api/v1/duels/none');
      // Both requests see a budget that pays for 1,000 characters; only the first can be charged.
      const random = await Promise.all(
        [0, 1].map(() => visitor.request('POST', '/api/v1/duels', { mode: 'random', prompt: 'r'.repeat(1000) })),
      );
      expect(random.map((answer) => answer.status)).toEqual([201, 201]);
      const charged = await Promise.all(random.map(async (answer) => (await target.chargedOf(answer.json.id as string)).charged));
      expect(charged.sort()).toEqual([false, true]);
      const uncharged = random[charged.indexOf(false)]!.json.id as string;
      expect(await target.modelsOf(uncharged)).not.toContain(COSTLY_MODEL);

      const other = target.visitor();
      await other.request('GET', '/api/v1/duels/none');
      const named = await Promise.all(
        [0, 1].map(() =>
          other.request('POST', '/api/v1/duels', { mode: 'custom', models: [COSTLY_MODEL, 'miravel-24b'], prompt: 'n'.repeat(1000) }),
        ),
      );
      expect(named.map((answer) => answer.status).sort()).toEqual([201, 429]);
    } finally {
      await target.close();
    }
  });
});
