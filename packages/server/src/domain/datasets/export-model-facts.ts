import { whPerMillionOutputTokens } from '../impact';
import type { ModelArchitecture } from '../impact/model-parameters';
import type { ExportModelFacts } from './conversation-rows';
import { type TrainingUse, trainingUseOf } from './training-use';

/** What the export reads of a catalogue model (config/catalogue.ts's entries have this shape and more). */
export interface CatalogueModelFacts {
  entry: {
    id: string;
    license: string;
    open_weights: boolean;
    training_use?: TrainingUse | undefined;
    params_b: number | null;
    active_params_b?: number | null | undefined;
    arch: ModelArchitecture;
  };
  options: { systemPrompt?: string | undefined };
}

export interface ImpactMethodSettings {
  method: '0.9.1' | '0.8.2' | 'comparia-compat';
  zone: string | undefined;
}

/** Public facts of every catalogue model, with its energy per million output tokens computed once. */
export function exportModelFacts(models: readonly CatalogueModelFacts[], impact: ImpactMethodSettings): Map<string, ExportModelFacts> {
  const facts = new Map<string, ExportModelFacts>();
  for (const { entry, options } of models) {
    let whPerMillionTokens: number | null = null;
    try {
      whPerMillionTokens = whPerMillionOutputTokens(
        { params_b: entry.params_b, active_params_b: entry.active_params_b, arch: entry.arch },
        { method: impact.method, zone: impact.zone ?? null },
      ).mean;
    } catch {
      // Unknown size or no estimate for it: the energy columns stay null for this model.
    }
    facts.set(entry.id, {
      license: entry.license,
      openWeights: entry.open_weights,
      trainingUse: trainingUseOf({ license: entry.license, openWeights: entry.open_weights, trainingUse: entry.training_use }),
      totalParamsB: entry.params_b,
      activeParamsB: entry.active_params_b ?? entry.params_b,
      whPerMillionTokens,
      systemPrompt: options.systemPrompt ?? null,
    });
  }
  return facts;
}
