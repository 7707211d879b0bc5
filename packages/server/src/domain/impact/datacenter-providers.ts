import type { ValueOrRange } from './value-range';

/** The provider keys of EcoLogits 0.9.1's data-centre table (`ecologits/tracers/utils.py`, docs/impact.md#data-centres). */
export type DatacenterProvider = 'anthropic' | 'cohere' | 'google_genai' | 'huggingface_hub' | 'mistralai' | 'openai';

/** Where a provider's data centres are and how efficient they are: mix zone, PUE, on-site WUE (L/kWh). */
export interface DatacenterConfig {
  zone: string;
  pue: ValueOrRange;
  wue: ValueOrRange;
}

/**
 * EcoLogits 0.9.1 data-centre configuration per provider (docs/impact.md#data-centres; the code's 0.999, not the
 * methodology page's 0.99). `openai` also covers Azure OpenAI.
 */
export const DATACENTER_PROVIDERS: Readonly<Record<DatacenterProvider, DatacenterConfig>> = {
  anthropic: { zone: 'USA', pue: { min: 1.09, max: 1.14 }, wue: { min: 0.13, max: 0.999 } },
  cohere: { zone: 'USA', pue: 1.09, wue: 0.999 },
  google_genai: { zone: 'USA', pue: 1.09, wue: 0.999 },
  huggingface_hub: { zone: 'USA', pue: { min: 1.09, max: 1.14 }, wue: { min: 0.13, max: 0.99 } },
  mistralai: { zone: 'SWE', pue: 1.16, wue: 0.09 },
  openai: { zone: 'USA', pue: 1.2, wue: 0.569 },
};

/**
 * The deployment assumed when neither a provider nor explicit figures are given: world mix, PUE 1.2
 * (EcoLogits 0.8.2's library default, also compar:IA's) and no on-site water (the spec's reference
 * tables, docs/impact.md#version-comparison, use the same PUE 1.2 / WUE 0).
 */
export const DEFAULT_DATACENTER: DatacenterConfig = { zone: 'WOR', pue: 1.2, wue: 0 };

/** True when the string is a provider key of the data-centre table. */
export function isDatacenterProvider(key: string): key is DatacenterProvider {
  return Object.hasOwn(DATACENTER_PROVIDERS, key);
}
