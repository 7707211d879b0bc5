import { describe, expect, it } from 'vitest';
import { systemRuntime } from '../../services/ports/runtime';
import { type PairingCandidate, type RandomSource, drawDuel, drawReplacement, drawnPools, rolePools } from './pairing';
import { seededRandom } from '../../../test/seeded-random';

const models: PairingCandidate[] = [
  { id: 'giant', paramsB: 405, reasoning: false, expensive: false },
  { id: 'big', paramsB: 120, reasoning: true, expensive: false },
  { id: 'mid', paramsB: 70, reasoning: false, expensive: false },
  { id: 'small', paramsB: 24, reasoning: true, expensive: false },
  { id: 'tiny', paramsB: 3, reasoning: false, expensive: false },
  { id: 'mystery', paramsB: null, reasoning: false, expensive: false },
];

/** Two-sided p-value of a binomial(n, ½) count, by the normal approximation with continuity correction (n is in the thousands). */
function binomialHalfPValue(successes: number, trials: number): number {
  const z = (Math.abs(successes - trials / 2) - 0.5) / Math.sqrt(trials / 4);
  return erfc(Math.max(0, z) / Math.SQRT2);
}

function erfc(x: number): number {
  // Numerical Recipes' erfc (fractional error < 1.2e-7).
  const t = 1 / (1 + 0.5 * x);
  const tau =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return tau;
}

/** How often each model landed on A and on B, over draws in random mode and in custom mode (where the order of the choice is fixed). */
function sideCounts(draws: number, random: RandomSource): Map<string, { a: number; b: number }> {
  const counts = new Map(models.map((model) => [model.id, { a: 0, b: 0 }]));
  const requests = [
    { mode: 'random' as const },
    { mode: 'custom' as const, chosen: ['mid', 'tiny'] },
    { mode: 'custom' as const, chosen: ['giant'] },
  ];
  for (let draw = 0; draw < draws; draw += 1) {
    const outcome = drawDuel(requests[draw % requests.length]!, models, random);
    if (!outcome.ok) throw new Error('draw failed');
    counts.get(outcome.sides.a.modelId)!.a += 1;
    counts.get(outcome.sides.b.modelId)!.b += 1;
  }
  return counts;
}

describe('drawDuel', () => {
  it('puts each model on A and B in balanced proportions over 10,000 draws (binomial test, p > 0.001)', () => {
    for (const [modelId, count] of sideCounts(10_000, seededRandom(2026))) {
      expect(count.a + count.b, modelId).toBeGreaterThan(1000);
      expect(binomialHalfPValue(count.a, count.a + count.b), modelId).toBeGreaterThan(0.001);
    }
  });

  it('stays balanced with the production random source', () => {
    for (const [modelId, count] of sideCounts(10_000, systemRuntime.random)) {
      expect(binomialHalfPValue(count.a, count.a + count.b), modelId).toBeGreaterThan(1e-6);
    }
  });

  it('would catch a biased coin', () => {
    const random = seededRandom(7);
    // A coin that puts the first model on A 55 % of the time: the custom-mode choices reveal it.
    const biased: RandomSource = () => random() * 0.91;
    const pValues = [...sideCounts(10_000, biased)].map(([, count]) => binomialHalfPValue(count.a, count.a + count.b));
    expect(Math.min(...pValues)).toBeLessThan(0.001);
  });

  it('draws every model of the random pool about equally often', () => {
    const random = seededRandom(11);
    const counts = new Map<string, number>();
    for (let draw = 0; draw < 12_000; draw += 1) {
      const outcome = drawDuel({ mode: 'random' }, models, random);
      if (!outcome.ok) throw new Error('draw failed');
      for (const side of [outcome.sides.a, outcome.sides.b]) counts.set(side.modelId, (counts.get(side.modelId) ?? 0) + 1);
    }
    for (const model of models) expect(counts.get(model.id)! / 24_000).toBeCloseTo(1 / 6, 1);
  });

  it.each([
    ['small-models', ['small', 'tiny'], ['small', 'tiny']],
    ['reasoning', ['big', 'small'], ['big', 'small']],
  ] as const)('%s draws both models from its pool only', (mode, first, second) => {
    const random = seededRandom(3);
    for (let draw = 0; draw < 500; draw += 1) {
      const outcome = drawDuel({ mode }, models, random);
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      const ids = [outcome.sides.a.modelId, outcome.sides.b.modelId].sort();
      expect(ids).toEqual([...first].sort());
      expect(new Set([...first, ...second])).toEqual(new Set(ids));
    }
  });

  it('big-vs-small always pairs one model ≥ 100 B with one ≤ 60 B, on either side', () => {
    const random = seededRandom(5);
    const bigOnA = { yes: 0, no: 0 };
    for (let draw = 0; draw < 2000; draw += 1) {
      const outcome = drawDuel({ mode: 'big-vs-small' }, models, random);
      if (!outcome.ok) throw new Error('draw failed');
      const [a, b] = [outcome.sides.a.modelId, outcome.sides.b.modelId];
      const big = ['giant', 'big'];
      const small = ['small', 'tiny'];
      expect((big.includes(a) && small.includes(b)) || (big.includes(b) && small.includes(a))).toBe(true);
      bigOnA[big.includes(a) ? 'yes' : 'no'] += 1;
    }
    expect(binomialHalfPValue(bigOnA.yes, 2000)).toBeGreaterThan(0.001);
  });

  it('never draws a model of unknown size into a size-based mode', () => {
    const [first, second] = rolePools('big-vs-small', models);
    expect([...first, ...second]).not.toContain('mystery');
    expect(rolePools('small-models', models)[0]).not.toContain('mystery');
  });

  it('knows before the draw which pools a request draws from: none for two chosen models, the rival’s for one', () => {
    expect(drawnPools({ mode: 'big-vs-small' }, models)).toEqual(rolePools('big-vs-small', models));
    expect(drawnPools({ mode: 'custom', chosen: ['mid'] }, models)).toEqual([models.map((model) => model.id)]);
    expect(drawnPools({ mode: 'custom', chosen: ['mid', 'tiny'] }, models)).toEqual([]);
  });

  it('custom mode keeps the chosen models, gives one chosen model a random rival, and never marks them replaceable', () => {
    const random = seededRandom(9);
    const both = drawDuel({ mode: 'custom', chosen: ['mid', 'tiny'] }, models, random);
    expect(both.ok && [both.sides.a.modelId, both.sides.b.modelId].sort()).toEqual(['mid', 'tiny']);
    expect(both.ok && [both.sides.a.replacementPool, both.sides.b.replacementPool]).toEqual([[], []]);
    for (let draw = 0; draw < 200; draw += 1) {
      const one = drawDuel({ mode: 'custom', chosen: ['mid'] }, models, random);
      if (!one.ok) throw new Error('draw failed');
      const chosenSide = one.sides.a.modelId === 'mid' ? one.sides.a : one.sides.b;
      const rival = one.sides.a.modelId === 'mid' ? one.sides.b : one.sides.a;
      expect(chosenSide.replacementPool).toEqual([]);
      expect(rival.modelId).not.toBe('mid');
      expect(rival.replacementPool.length).toBeGreaterThan(0);
    }
  });

  it('reports unknown custom ids and pools too small to draw from', () => {
    expect(drawDuel({ mode: 'custom', chosen: ['mid', 'ghost'] }, models, seededRandom(1))).toEqual({
      ok: false,
      reason: 'unknown_models',
      unknown: ['ghost'],
    });
    expect(drawDuel({ mode: 'reasoning' }, models.slice(0, 2), seededRandom(1))).toEqual({
      ok: false,
      reason: 'not_enough_models',
      mode: 'reasoning',
    });
    expect(drawDuel({ mode: 'random' }, models.slice(0, 1), seededRandom(1))).toMatchObject({ ok: false, reason: 'not_enough_models' });
  });

  it('follows optional pair weights, never drawing a zero-weight pair, within the mode pools', () => {
    const random = seededRandom(4);
    const pairWeight = (first: string, second: string) =>
      [first, second].includes('tiny') ? 0 : [first, second].includes('giant') ? 5 : 1;
    const seen = new Map<string, number>();
    for (let draw = 0; draw < 3000; draw += 1) {
      const outcome = drawDuel({ mode: 'random', pairWeight }, models, random);
      if (!outcome.ok) throw new Error('draw failed');
      for (const side of [outcome.sides.a, outcome.sides.b]) seen.set(side.modelId, (seen.get(side.modelId) ?? 0) + 1);
    }
    expect(seen.has('tiny')).toBe(false);
    expect(seen.get('giant')!).toBeGreaterThan(2 * seen.get('mid')!);
    for (let draw = 0; draw < 300; draw += 1) {
      const outcome = drawDuel({ mode: 'big-vs-small', pairWeight }, models, random);
      if (!outcome.ok) throw new Error('draw failed');
      expect([outcome.sides.a.modelId, outcome.sides.b.modelId].sort()).toEqual(expect.arrayContaining(['small']));
    }
    const custom = drawDuel(
      { mode: 'custom', chosen: ['mid'], pairWeight: (first, second) => ([first, second].includes('big') ? 1 : 0) },
      models,
      random,
    );
    expect(custom.ok && [custom.sides.a.modelId, custom.sides.b.modelId].sort()).toEqual(['big', 'mid']);
  });

  it('keeps sides balanced under pair weights', () => {
    const random = seededRandom(12);
    const onA = new Map<string, number>();
    const total = new Map<string, number>();
    for (let draw = 0; draw < 6000; draw += 1) {
      const outcome = drawDuel({ mode: 'random', pairWeight: (first) => (first === 'giant' ? 3 : 1) }, models, random);
      if (!outcome.ok) throw new Error('draw failed');
      for (const side of ['a', 'b'] as const) total.set(outcome.sides[side].modelId, (total.get(outcome.sides[side].modelId) ?? 0) + 1);
      onA.set(outcome.sides.a.modelId, (onA.get(outcome.sides.a.modelId) ?? 0) + 1);
    }
    for (const [model, n] of total) expect(binomialHalfPValue(onA.get(model) ?? 0, n), model).toBeGreaterThan(0.001);
  });
});

describe('drawReplacement', () => {
  it('comes from the side pool and excludes the models in the duel', () => {
    const random = seededRandom(8);
    for (let draw = 0; draw < 200; draw += 1) {
      const replacement = drawReplacement({ modelId: 'small', replacementPool: ['small', 'tiny', 'mid'] }, ['small', 'mid'], random);
      expect(replacement).toBe('tiny');
    }
    expect(drawReplacement({ modelId: 'small', replacementPool: [] }, [], random)).toBeUndefined();
    expect(drawReplacement({ modelId: 'small', replacementPool: ['small'] }, ['small'], random)).toBeUndefined();
  });
});
