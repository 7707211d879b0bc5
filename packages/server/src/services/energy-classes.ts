import type { ModelCard } from '@agora/contract';
import { ImpactError, whPer1000OutputTokens } from '../domain/impact';
import { REFERENCE_ANSWER_TOKENS, type EnergyClass, energyClassOf, energyClassThresholds } from '../domain/impact/energy-class';

/** The catalogue's energy classes (docs/impact.md#energy-classes): of each model, and of any answer's energy. */
export interface EnergyClasses {
  /** Wh of the four thresholds between A|B, B|C, C|D and D|E; undefined when the catalogue cannot make classes. */
  thresholds: [number, number, number, number] | undefined;
  ofModel(modelId: string): EnergyClass | undefined;
  ofAnswerWh(wh: number): EnergyClass | undefined;
}

/**
 * Energy classes over the catalogue's models whose size is known: each model's energy on the
 * reference answer (EcoLogits, no latency cap, the midpoint of its range) with the reveal's
 * method and zone, and the thresholds from their distribution.
 */
export function catalogueEnergyClasses(
  cards: readonly ModelCard[],
  settings: { method: '0.9.1' | '0.8.2' | 'comparia-compat'; zone: string | undefined },
): EnergyClasses {
  const referenceWh = new Map<string, number>();
  for (const card of cards) {
    if (card.params_b === null) continue;
    try {
      const per1000 = whPer1000OutputTokens(
        { params_b: card.params_b, active_params_b: card.active_params_b, arch: card.arch },
        { method: settings.method, zone: settings.zone ?? null },
      );
      referenceWh.set(card.id, (per1000.mean * REFERENCE_ANSWER_TOKENS) / 1000);
    } catch (error) {
      if (!(error instanceof ImpactError)) throw error;
    }
  }
  const thresholds = energyClassThresholds([...referenceWh.values()]);
  return {
    thresholds,
    ofModel: (modelId) => {
      const wh = referenceWh.get(modelId);
      return thresholds && wh !== undefined ? energyClassOf(wh, thresholds) : undefined;
    },
    ofAnswerWh: (wh) => (thresholds ? energyClassOf(wh, thresholds) : undefined),
  };
}
