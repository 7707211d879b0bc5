/**
 * Environmental impact of LLM answers with the EcoLogits method (GenAI Impact), versions 0.9.1
 * (default) and 0.8.2, plus a compar:IA compatibility switch. Pure: no I/O, no clock, no randomness.
 * See docs/impact.md.
 */
export { computeLlmImpacts } from './compute-impact';
export {
  conversationImpact,
  conversationImpactOf,
  type ConversationAnswers,
  type ConversationImpact,
  type ConversationImpactInput,
} from './conversation-impact';
export { estimateImpact, impactsWithSettings, type ImpactEstimate } from './estimate-impact';
export { resolveImpactSettings, type ImpactOptions, type ImpactSettings } from './resolve-impact-settings';
export {
  meanEnergyPerDuel,
  meanEnergyPerDuelByModel,
  whPer1000OutputTokens,
  whPerMillionOutputTokens,
  type DuelSideEnergy,
  type RangeWithMean,
} from './leaderboard-impact';
export {
  COMPARIA_CONVENTIONS,
  comparIaConsumption,
  comparIaLightbulb,
  comparIaParameterCounts,
  comparIaStreaming,
  type ComparIaConsumption,
  type ComparIaDuration,
} from './comparia-compat';
export { EQUIVALENT_FACTORS, everydayEquivalents, type Equivalent, type EquivalentSource } from './equivalents';
export { IMPACT_MESSAGES, resolveImpactLocale, type EquivalentKind, type EquivalentUnit, type ImpactLocale } from './impact-messages';
export { ImpactError, type ImpactErrorCode } from './impact-error';
export { ELECTRICITY_MIX_ATTRIBUTION, WORLD_ZONE, electricityMixZones, findElectricityMix } from './electricity-mixes';
export {
  DATACENTER_PROVIDERS,
  DEFAULT_DATACENTER,
  isDatacenterProvider,
  type DatacenterConfig,
  type DatacenterProvider,
} from './datacenter-providers';
export { moeActiveRange, resolveParameterCounts, type ModelArchitecture, type ModelFacts, type Quantization } from './model-parameters';
export { ECOLOGITS_VERSIONS, type EcologitsVersion, type ImpactMethod, type LlmImpacts, type LlmImpactInput } from './impact-types';
export type { ElectricityMixFactors, ImpactRunDetails, PhasedImpact } from './impact-types';
export { ECOLOGITS_0_9_1 } from './constants-0-9-1';
export { ECOLOGITS_0_8_2 } from './constants-0-8-2';
export { rangeMean, type ValueOrRange, type ValueRange } from './value-range';
