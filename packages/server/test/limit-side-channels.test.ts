import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../src/config/catalogue';
import { COSTLY_MODEL, PROBE_SCENARIOS, type ProbeTarget, SteeredRuntime, runProbe, probeCatalogueYaml } from './limit-probes';
import { ClientAt, type TestArena, startTestArena } from './test-arena';
import { DIALECTS } from './test-db';

/**
 * No limit tells who is in a duel (issue 31, point 2), over HTTP on both stores: the red team's
 * probe (a 1,000-character duel, then a probe naming the costly model) and its generalisations to
 * every limit a visitor can hit on the way to a model (test/limit-probes.ts). Each scenario runs on
 * one arena twice, from two client addresses behind the trusted loopback proxy, once where the hidden
 * duel holds the costly model and once where it does not: the visitor must see the same answers.
 */

/** The loopback is a trusted proxy: each run speaks for its own client address. */
const TRUSTED_LOOPBACK = { AGORA_TRUSTED_PROXIES: '127.0.0.1,::1' };

function probeTarget(harness: TestArena, runtime: SteeredRuntime, address: string): ProbeTarget {
  return {
    visitor: () => {
      const client = new ClientAt(harness.baseUrl, address);
      return {
        request: (method, path, body) => client.request(method, path, body),
        stream: (duelId, turn) => client.stream(duelId, { turn }),
      };
    },
    steer: (values) => runtime.steer(values),
    modelsOf: async (duelId) => {
      const duel = (await harness.arena.store.duels.findById(duelId))!;
      return [duel.modelA, duel.modelB];
    },
  };
}

describe.each(DIALECTS)('no limit tells who is in a duel ($name)', (dialect) => {
  describe.each(PROBE_SCENARIOS.map((scenario, index) => [scenario.limit, scenario, index] as const))('%s', (_limit, scenario, index) => {
    let harness: TestArena;
    const runtime = new SteeredRuntime();
    beforeAll(async () => {
      harness = await startTestArena(dialect, {
        environment: { ...TRUSTED_LOOPBACK, ...scenario.environment },
        catalogue: (baseUrl) => parseCatalogue(probeCatalogueYaml(baseUrl), 'test-models.yaml', {}),
        runtime,
      });
      harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    });
    afterAll(() => harness.close());

    it('answers the same whether the hidden duel holds the costly model or not', async () => {
      const probe = (holdsCostly: boolean) =>
        runProbe(probeTarget(harness, runtime, `198.51.${100 + index}.${holdsCostly ? 1 : 2}`), scenario, holdsCostly);
      const holding = await probe(true);
      const without = await probe(false);
      expect(holding.hiddenModels).toContain(COSTLY_MODEL);
      expect(without.hiddenModels).not.toContain(COSTLY_MODEL);
      expect(holding.observed.map((answer) => answer.status)).toEqual(scenario.statuses);
      expect(without.observed).toEqual(holding.observed);
      await harness.arena.duels.drain();
    });
  });
});
