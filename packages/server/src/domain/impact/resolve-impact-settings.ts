import { COMPARIA_CONVENTIONS, comparIaParameterCounts } from './comparia-compat';
import { ECOLOGITS_0_8_2 } from './constants-0-8-2';
import { DATACENTER_PROVIDERS, DEFAULT_DATACENTER, isDatacenterProvider } from './datacenter-providers';
import { findElectricityMix, WORLD_ZONE } from './electricity-mixes';
import { ImpactError } from './impact-error';
import { ECOLOGITS_VERSIONS, type EcologitsVersion, type ElectricityMixFactors, type ImpactMethod } from './impact-types';
import { resolveParameterCounts, type ModelFacts } from './model-parameters';
import { isValueRange, type ValueOrRange } from './value-range';

/**
 * Choices of the caller: EcoLogits version (default `0.9.1`), the compar:IA switch, the mix zone and
 * the deployment's PUE and on-site WUE (each overriding the provider's figures of docs/impact.md#data-centres).
 */
export interface ImpactOptions {
  /** A version, or a method label as returned (`ecologits-0.8.2`, `comparia-compat` = the switch). */
  method?: EcologitsVersion | ImpactMethod | null;
  /** `'comparia'` (or `true`) turns the compar:IA switch on. */
  compat?: 'comparia' | boolean | null;
  zone?: string | null;
  pue?: ValueOrRange | null;
  wue?: ValueOrRange | null;
}

/** Everything decided before computing: version, label, zone and its mix, PUE, WUE, parameter counts. */
export interface ImpactSettings {
  version: EcologitsVersion;
  method: ImpactMethod;
  zone: string;
  mix: ElectricityMixFactors;
  pue: ValueOrRange;
  /** On-site WUE, L/kWh; `null` for 0.8.2, which has no water indicator. */
  wue: ValueOrRange | null;
  activeParamsB: ValueOrRange;
  totalParamsB: ValueOrRange;
  /** True when a parameter count is a range, so the impacts are a range because of the model size. */
  sizeUncertain: boolean;
  /** False under the compar:IA switch: measured latencies are ignored, as compar:IA passes none. */
  usesLatency: boolean;
}

/**
 * Resolves the settings of an estimate.
 * - compar:IA switch: EcoLogits 0.8.2 with compar:IA's parameter counts, zone `WOR`, PUE 1.2 and no
 *   latency; the zone, PUE, WUE and provider options are ignored (the CLI rejects them explicitly).
 * - 0.9.1: zone = option, else the provider's location, else `WOR`; PUE and WUE = options, else the
 *   provider's (docs/impact.md#data-centres), else the default deployment (PUE 1.2, WUE 0).
 * - 0.8.2: zone = option, else `WOR`; PUE = option, else 1.2; provider and WUE do not apply.
 * @throws ImpactError `unknown_provider`, `zone_not_registered`, `unknown_model_size`,
 *   `invalid_parameters`, or `incompatible_options` (compar:IA switch with method 0.9.1).
 */
export function resolveImpactSettings(model: ModelFacts, options: ImpactOptions = {}): ImpactSettings {
  const provider = model.provider ?? null;
  if (provider !== null && !isDatacenterProvider(provider)) {
    const known = Object.keys(DATACENTER_PROVIDERS).join(', ');
    throw new ImpactError('unknown_provider', `unknown provider '${provider}' (known: ${known})`);
  }
  const method = options.method ?? null;
  if (options.compat === 'comparia' || options.compat === true || method === 'comparia-compat') {
    return comparIaSettings(model, method === 'comparia-compat' ? null : method);
  }
  const version = checkVersion(method?.replace(/^ecologits-/, '') ?? '0.9.1');
  const datacenter = provider !== null && version === '0.9.1' ? DATACENTER_PROVIDERS[provider] : DEFAULT_DATACENTER;
  const zone = (options.zone ?? datacenter.zone).trim().toUpperCase();
  const counts = resolveParameterCounts(model);
  return {
    version,
    method: version === '0.9.1' ? 'ecologits-0.9.1' : 'ecologits-0.8.2',
    zone,
    mix: findElectricityMix(version, zone),
    pue: options.pue ?? (version === '0.9.1' ? datacenter.pue : ECOLOGITS_0_8_2.defaultPue),
    wue: version === '0.9.1' ? (options.wue ?? datacenter.wue) : null,
    ...counts,
    sizeUncertain: isValueRange(counts.activeParamsB) || isValueRange(counts.totalParamsB),
    usesLatency: true,
  };
}

function checkVersion(version: string): EcologitsVersion {
  if ((ECOLOGITS_VERSIONS as readonly string[]).includes(version)) return version as EcologitsVersion;
  throw new ImpactError('unknown_method', `unknown EcoLogits version '${version}' (known: ${ECOLOGITS_VERSIONS.join(', ')})`);
}

function comparIaSettings(model: ModelFacts, method: string | null): ImpactSettings {
  if ((method?.replace(/^ecologits-/, '') ?? COMPARIA_CONVENTIONS.version) !== COMPARIA_CONVENTIONS.version) {
    throw new ImpactError('incompatible_options', 'the compar:IA switch reproduces compar:IA production, which runs EcoLogits 0.8.2');
  }
  const counts = comparIaParameterCounts(model);
  return {
    version: COMPARIA_CONVENTIONS.version,
    method: 'comparia-compat',
    zone: WORLD_ZONE,
    mix: findElectricityMix(COMPARIA_CONVENTIONS.version, WORLD_ZONE),
    pue: COMPARIA_CONVENTIONS.pue,
    wue: null,
    ...counts,
    sizeUncertain: isValueRange(counts.activeParamsB) || isValueRange(counts.totalParamsB),
    usesLatency: false,
  };
}
