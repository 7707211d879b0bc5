import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { comparIaLightbulb, comparIaParameterCounts, comparIaStreaming, type ComparIaConsumption } from './comparia-compat';
import { conversationImpact } from './conversation-impact';
import { ImpactError } from './impact-error';
import { whPer1000OutputTokens, whPerMillionOutputTokens } from './leaderboard-impact';
import type { ModelFacts, Quantization } from './model-parameters';
import { resolveImpactSettings } from './resolve-impact-settings';

// Reference figures of betagouv/ComparIA (Apache-2.0): its published `wh_per_million_token` per model
// and reveal cards computed by its own `get_llm_consumption`; see the file's `about`.
interface ComparIaModel {
  params: number;
  active_params: number | null;
  quantization: Quantization | null;
}
const reference = JSON.parse(readFileSync(new URL('./testdata/comparia-reference.json', import.meta.url), 'utf8')) as {
  published: Array<ComparIaModel & { id: string; wh_per_million_token: number }>;
  cards: Array<{ model: ComparIaModel; tokens: number; card: ComparIaConsumption }>;
};

const facts = (model: ComparIaModel): ModelFacts => ({
  params_b: model.params,
  active_params_b: model.active_params,
  quantization: model.quantization,
  arch: model.active_params === null ? 'dense' : 'moe',
});

describe('compar:IA parameter conventions', () => {
  it.each([
    [{ params_b: 3.8 }, 3, 3],
    [{ params_b: 440, active_params_b: 137.5 }, 137, 440],
    [{ params_b: 117, active_params_b: 5.1 }, 5, 117],
    [{ params_b: 14, quantization: 'q8' }, 7, 7],
    [{ params_b: 27.9, quantization: 'q8' }, 13, 13],
    [{ params_b: 32, active_params_b: 3.3, quantization: 'q8' }, 1, 16],
    [{ params_b: 230, active_params_b: null, arch: 'moe' }, 230, 230],
    [{ params_b: 8, active_params_b: 0 }, 8, 8],
  ] as Array<[ModelFacts, number, number]>)('%o → active %d, total %d', (model, active, total) => {
    expect(comparIaParameterCounts(model)).toEqual({ activeParamsB: active, totalParamsB: total });
  });

  it('truncates both bounds of a range', () => {
    expect(comparIaParameterCounts({ params_b: { min: 70.5, max: 120.9 } })).toEqual({
      activeParamsB: { min: 70, max: 120 },
      totalParamsB: { min: 70, max: 120 },
    });
  });

  it('rejects a size that truncates to zero, and an unknown size', () => {
    expect(() => comparIaParameterCounts({ params_b: 0.5 })).toThrow(ImpactError);
    expect(() => comparIaParameterCounts({ params_b: null })).toThrow(/params_b is null/);
  });

  it('pins EcoLogits 0.8.2, the world mix and PUE 1.2, whatever the provider, zone or PUE', () => {
    const settings = resolveImpactSettings({ params_b: 70, provider: 'mistralai' }, { compat: 'comparia', zone: 'FRA', pue: 1.5, wue: 1 });
    expect(settings).toMatchObject({ version: '0.8.2', method: 'comparia-compat', zone: 'WOR', pue: 1.2, wue: null });
    expect(settings.usesLatency).toBe(false);
  });

  it('refuses to be combined with EcoLogits 0.9.1', () => {
    expect(() => resolveImpactSettings({ params_b: 8 }, { compat: 'comparia', method: '0.9.1' })).toThrow(
      expect.objectContaining({ code: 'incompatible_options' }),
    );
  });
});

describe("compar:IA's published Wh per million tokens", () => {
  it.each(reference.published.map((model) => [model.id, model] as const))('%s', (_id, model) => {
    const figure = whPerMillionOutputTokens(facts(model), { compat: 'comparia' });
    expect(figure.mean).toBe(model.wh_per_million_token);
    expect(figure.min).toBeLessThanOrEqual(figure.mean);
    expect(figure.max).toBeGreaterThanOrEqual(figure.mean);
  });

  it('gives the ranking page figure per 1,000 tokens (llama-3.3-70b: 12 Wh)', () => {
    expect(Math.round(whPer1000OutputTokens({ params_b: 70 }, { compat: 'comparia' }).mean)).toBe(12);
  });
});

describe("compar:IA's reveal cards through the switch", () => {
  it.each(reference.cards.map((card, index) => [index, card] as const))('card %d', (_index, reference) => {
    const impact = conversationImpact({
      model: facts(reference.model),
      outputTokensPerMessage: [reference.tokens],
      compat: 'comparia',
      locale: 'fr',
    });
    const card = impact.comparia as ComparIaConsumption;
    expect(card.kwh).toBe(reference.card.kwh);
    expect(card.co2).toBe(reference.card.co2);
    expect(card.tokens).toBe(reference.card.tokens);
    expect(card.lightbulb).toEqual(reference.card.lightbulb);
    expect(card.streaming).toEqual(reference.card.streaming);
    expect(impact.method).toBe('comparia-compat');
    expect(impact.equivalents.map((equivalent) => equivalent.value)).toEqual([
      reference.card.lightbulb.value,
      reference.card.streaming.value,
    ]);
  });

  it('sums the answers of the conversation before computing, as compar:IA does', () => {
    const split = conversationImpact({ model: { params_b: 8 }, outputTokensPerMessage: [100, 250, 650], compat: 'comparia' });
    const whole = conversationImpact({ model: { params_b: 8 }, outputTokensPerMessage: [1000], compat: 'comparia' });
    expect(split.comparia).toEqual({ ...whole.comparia, tokens: 1000 });
    expect(split.energy_wh).toEqual(whole.energy_wh);
  });

  it('ignores measured latencies, which compar:IA does not pass', () => {
    const withLatency = conversationImpact({
      model: { params_b: 8 },
      outputTokensPerMessage: [1000],
      latencySecondsPerMessage: [0.5],
      compat: 'comparia',
    });
    const without = conversationImpact({ model: { params_b: 8 }, outputTokensPerMessage: [1000], compat: 'comparia' });
    expect(withLatency.energy_wh).toEqual(without.energy_wh);
  });
});

describe('compar:IA unit cascades', () => {
  it.each([
    [0, { value: 0, unit: 's' }],
    [1e-6, { value: 0, unit: 's' }],
    [1e-5, { value: 7, unit: 's' }],
    [0.0001, { value: 1, unit: 'min' }],
    [0.005, { value: 1, unit: 'h' }],
    [0.12, { value: 1, unit: 'j' }],
  ])('LED bulb for %f kWh', (kwh, expected) => {
    expect(comparIaLightbulb(kwh)).toEqual(expected);
  });

  it.each([
    [0, { value: 0, unit: 's' }],
    [0.0001, { value: 11, unit: 's' }],
    [0.001, { value: 1, unit: 'min' }],
    [0.0317, { value: 1, unit: 'h' }],
    [0.7608, { value: 1, unit: 'j' }],
  ])('online video for %f kg CO2eq', (kg, expected) => {
    expect(comparIaStreaming(kg)).toEqual(expected);
  });
});
