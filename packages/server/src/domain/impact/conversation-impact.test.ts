import { describe, expect, it } from 'vitest';
import { conversationImpact } from './conversation-impact';
import { durationAmount, everydayEquivalents, roundForDisplay } from './equivalents';
import { estimateImpact } from './estimate-impact';
import { ImpactError } from './impact-error';
import { IMPACT_MESSAGES, resolveImpactLocale } from './impact-messages';
import { INTERFACE_LOCALES } from '@agora/contract';

const llama70b = { params_b: 70, active_params_b: 70, arch: 'dense' as const };

describe('conversationImpact', () => {
  it('computes each finished answer once and sums them, in Wh and g CO2e', () => {
    const impact = conversationImpact({ model: llama70b, outputTokensPerMessage: [300, 700], locale: 'fr' });
    const first = estimateImpact(llama70b, 300).impacts;
    const second = estimateImpact(llama70b, 700).impacts;
    expect(impact.energy_wh.min).toBeCloseTo((first.energyKwh.min + second.energyKwh.min) * 1000, 15);
    expect(impact.gwp_g.max).toBeCloseTo((first.gwpKgCo2eq.total.max + second.gwpKgCo2eq.total.max) * 1000, 15);
    expect(impact).toMatchObject({ method: 'ecologits-0.9.1', zone: 'WOR', output_tokens: 1000, size_uncertain: false });
    expect(impact.energy_wh.min).toBe(impact.energy_wh.max);
  });

  it('applies each answer’s own latency cap', () => {
    const capped = conversationImpact({
      model: llama70b,
      outputTokensPerMessage: [500, 500],
      latencySecondsPerMessage: [1, null],
    });
    const uncapped = conversationImpact({ model: llama70b, outputTokensPerMessage: [500, 500] });
    const firstCapped = estimateImpact(llama70b, 500, { latencySeconds: 1 }).impacts.energyKwh.min;
    const secondFree = estimateImpact(llama70b, 500).impacts.energyKwh.min;
    expect(capped.energy_wh.min).toBeLessThan(uncapped.energy_wh.min);
    expect(capped.energy_wh.min).toBeCloseTo((firstCapped + secondFree) * 1000, 15);
    expect(() => conversationImpact({ model: llama70b, outputTokensPerMessage: [1, 2], latencySecondsPerMessage: [1] })).toThrow(
      ImpactError,
    );
  });

  it('gives a range when the size is uncertain (MoE without active count, ranged size)', () => {
    const moe = conversationImpact({ model: { params_b: 440, active_params_b: null, arch: 'moe' }, outputTokensPerMessage: [800] });
    expect(moe.size_uncertain).toBe(true);
    expect(moe.energy_wh.min).toBeLessThan(moe.energy_wh.max);
    const ranged = conversationImpact({ model: { params_b: { min: 70, max: 120 } }, outputTokensPerMessage: [800] });
    expect(ranged.size_uncertain).toBe(true);
    expect(ranged.gwp_g.min).toBeLessThan(ranged.gwp_g.max);
  });

  it('uses the method, zone and provider asked for, and labels them', () => {
    const impact = conversationImpact({
      model: { ...llama70b, provider: 'mistralai' },
      outputTokensPerMessage: [400],
      locale: 'en',
    });
    expect(impact).toMatchObject({ zone: 'SWE', method_label: 'EcoLogits 0.9.1', zone_label: 'electricity mix of zone SWE' });
    const old = conversationImpact({ model: llama70b, outputTokensPerMessage: [400], method: '0.8.2', zone: 'FRA' });
    expect(old).toMatchObject({ method: 'ecologits-0.8.2', zone: 'FRA', zone_label: 'mix électrique de la zone FRA' });
    expect(old.energy_wh.min).toBeLessThan(old.energy_wh.max);
    const deployment = conversationImpact({ model: llama70b, outputTokensPerMessage: [400], datacenter: { pue: 1.5 } });
    const base = conversationImpact({ model: llama70b, outputTokensPerMessage: [400] });
    expect(deployment.energy_wh.min / base.energy_wh.min).toBeCloseTo(1.5 / 1.2, 12);
  });

  it('labels the compar:IA switch clearly in both languages', () => {
    const fr = conversationImpact({ model: llama70b, outputTokensPerMessage: [400], compat: 'comparia' });
    const en = conversationImpact({ model: llama70b, outputTokensPerMessage: [400], compat: 'comparia', locale: 'en-GB' });
    expect(fr.method_label).toMatch(/^Compatibilité compar:IA/);
    expect(en.method_label).toMatch(/^compar:IA compatibility/);
    expect(fr.zone_label).toBe('mix électrique mondial moyen');
  });

  it('gives zero for an empty conversation or zero tokens', () => {
    for (const outputTokensPerMessage of [[], [0, 0]]) {
      const impact = conversationImpact({ model: llama70b, outputTokensPerMessage });
      expect(impact.energy_wh).toEqual({ min: 0, max: 0 });
      expect(impact.gwp_g).toEqual({ min: 0, max: 0 });
      expect(impact.equivalents.every((equivalent) => equivalent.value === 0)).toBe(true);
    }
  });

  it('rejects a model without size, negative tokens and unknown zones with typed errors', () => {
    const codeOf = (action: () => unknown) => {
      try {
        action();
      } catch (error) {
        return (error as ImpactError).code;
      }
      return null;
    };
    expect(codeOf(() => conversationImpact({ model: { params_b: null }, outputTokensPerMessage: [10] }))).toBe('unknown_model_size');
    expect(codeOf(() => conversationImpact({ model: llama70b, outputTokensPerMessage: [10, -1] }))).toBe('invalid_tokens');
    expect(codeOf(() => conversationImpact({ model: llama70b, outputTokensPerMessage: [10], zone: 'ZZZ' }))).toBe('zone_not_registered');
  });
});

describe('everyday equivalents', () => {
  it('offers two or three readable equivalents, each with a label and a source', () => {
    for (const energyWh of [0.001, 0.05, 0.4, 3, 40, 900, 20000]) {
      const equivalents = everydayEquivalents({ energyWh, gwpG: energyWh * 0.5 }, 'fr');
      expect(equivalents.length).toBeGreaterThanOrEqual(2);
      expect(equivalents.length).toBeLessThanOrEqual(3);
      for (const equivalent of equivalents) {
        expect(equivalent.label.length).toBeGreaterThan(0);
        expect(equivalent.source.url).toMatch(/^https:\/\//);
        expect(equivalent.source.name.length).toBeGreaterThan(0);
      }
    }
  });

  it('picks units that keep the numbers readable', () => {
    const equivalents = everydayEquivalents({ energyWh: 3, gwpG: 1.5 }, 'en');
    expect(equivalents).toEqual([
      expect.objectContaining({ kind: 'led_bulb', value: 36, unit: 'min', unit_label: 'min' }),
      expect.objectContaining({ kind: 'video_streaming', value: 2.8, unit: 'min' }),
      expect.objectContaining({ kind: 'electric_car', value: 18, unit: 'm' }),
    ]);
    const large = everydayEquivalents({ energyWh: 20000, gwpG: 9000 }, 'fr');
    expect(large[0]).toMatchObject({ kind: 'led_bulb', value: 167, unit: 'd', unit_label: 'j' });
    expect(large[2]).toMatchObject({ kind: 'electric_car', value: 118, unit: 'km' });
  });

  it('leaves out the car when the distance would be under a metre', () => {
    const kinds = everydayEquivalents({ energyWh: 0.05, gwpG: 0.025 }, 'fr').map((equivalent) => equivalent.kind);
    expect(kinds).toEqual(['led_bulb', 'video_streaming']);
  });

  it('uses the message table of the locale (French by default)', () => {
    expect(resolveImpactLocale(undefined)).toBe('fr');
    expect(resolveImpactLocale('de')).toBe('fr');
    expect(resolveImpactLocale('EN-us')).toBe('en');
    const [fr] = everydayEquivalents({ energyWh: 3, gwpG: 1 }, 'fr');
    const [en] = everydayEquivalents({ energyWh: 3, gwpG: 1 }, 'en');
    expect(fr?.label).toBe(IMPACT_MESSAGES.fr.equivalents.led_bulb.label);
    expect(en?.label).toBe(IMPACT_MESSAGES.en.equivalents.led_bulb.label);
    expect(Object.keys(IMPACT_MESSAGES.fr.equivalents)).toEqual(Object.keys(IMPACT_MESSAGES.en.equivalents));
  });

  it('speaks every interface language, each in its own words', () => {
    expect(['sv-SE', 'da', 'LT-lt', 'fr-CA'].map(resolveImpactLocale)).toEqual(['sv', 'da', 'lt', 'fr']);
    const labels = INTERFACE_LOCALES.map((locale) => {
      const impact = conversationImpact({ model: llama70b, outputTokensPerMessage: [400], locale, zone: 'SWE' });
      return [impact.equivalents[0]?.label, impact.equivalents[0]?.source.name, impact.zone_label, impact.method_label];
    });
    // No two languages share an equivalent, a source or a zone text (a copy of another language's text would).
    for (const column of [0, 1, 2]) expect(new Set(labels.map((row) => row[column])).size).toBe(INTERFACE_LOCALES.length);
    expect(labels.map((row) => row[2])).toEqual(INTERFACE_LOCALES.map((locale) => IMPACT_MESSAGES[locale].zone('SWE')));
  });

  it('cascades durations and rounds for display', () => {
    expect(durationAmount('led_bulb', 48)).toMatchObject({ value: 2, unit: 'd' });
    expect(durationAmount('led_bulb', 0.5)).toMatchObject({ value: 30, unit: 'min' });
    expect(durationAmount('led_bulb', 0.0001)).toMatchObject({ unit: 's' });
    expect([roundForDisplay(123.4), roundForDisplay(4.56), roundForDisplay(0.01234), roundForDisplay(0)]).toEqual([123, 4.6, 0.012, 0]);
  });
});
