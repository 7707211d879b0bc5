import { computeLlmImpacts } from './compute-impact';
import type { LlmImpacts } from './impact-types';
import type { ModelFacts } from './model-parameters';
import { resolveImpactSettings, type ImpactOptions, type ImpactSettings } from './resolve-impact-settings';

/** The impacts of one answer together with the settings that produced them. */
export interface ImpactEstimate {
  settings: ImpactSettings;
  impacts: LlmImpacts;
}

/**
 * Impacts of one answer of `outputTokens` tokens by a catalogue model: resolves the settings
 * (`resolveImpactSettings`) then runs EcoLogits (`computeLlmImpacts`). `latencySeconds` is the
 * measured request latency (an upper cap of the generation time), ignored under the compar:IA switch.
 * @throws ImpactError on any invalid input.
 */
export function estimateImpact(
  model: ModelFacts,
  outputTokens: number,
  options: ImpactOptions & { latencySeconds?: number | null } = {},
): ImpactEstimate {
  const settings = resolveImpactSettings(model, options);
  return { settings, impacts: impactsWithSettings(settings, outputTokens, options.latencySeconds) };
}

/** Runs EcoLogits with already-resolved settings (one request; reuse the settings across messages). */
export function impactsWithSettings(settings: ImpactSettings, outputTokens: number, latencySeconds?: number | null): LlmImpacts {
  return computeLlmImpacts({
    version: settings.version,
    activeParamsB: settings.activeParamsB,
    totalParamsB: settings.totalParamsB,
    outputTokens,
    requestLatencySeconds: settings.usesLatency ? latencySeconds : null,
    mix: settings.mix,
    pue: settings.pue,
    wue: settings.wue ?? undefined,
  });
}
